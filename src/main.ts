import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp, seedIfEmpty } from './bootstrap';
import { settingsOrExit } from './config/app-config';
import { drainAndClose } from './operations/shutdown';
import { ensureLocalRedis, stopLocalRedis } from './redis/local-redis';

/** Time allowed, past the requests' deadline, for the projector and Redis to stop. */
const STOP_GRACE_MS = 5000;

async function main(): Promise<void> {
  const config = settingsOrExit();
  const localRedis = await ensureLocalRedis(config.redisUrl, config.dataDir, (line) => console.log(line));
  const app = await createApp(config);
  const logger = app.get(Logger);
  const stopRedis = () => stopLocalRedis(localRedis);
  process.once('exit', () => localRedis?.kill('SIGTERM'));
  try {
    await app.init();
    const seeded = await seedIfEmpty(app, config);
    if (seeded) logger.log(seeded);
    await app.listen(config.port, config.host);
  } catch (error) {
    logger.error((error as Error).message);
    await app.close();
    await stopRedis();
    process.exit(1);
  }
  const shown = config.publicBaseUrl ?? `http://localhost:${config.port}`;
  console.log(`API directory serving on ${shown}  (try ${shown}/api/v1/tools/categories)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.log(`${signal}: no new connections; requests in flight have ${config.shutdownTimeoutMs} ms to finish`);
      // Should stopping itself hang (a store that never answers), the process still ends, and says so.
      setTimeout(() => {
        logger.error(`still stopping ${STOP_GRACE_MS} ms after the requests' deadline: exiting anyway`);
        process.exit(1);
      }, config.shutdownTimeoutMs + STOP_GRACE_MS).unref();
      void drainAndClose(app, config.shutdownTimeoutMs)
        .then((finished) => {
          if (!finished) logger.warn(`requests still in flight after ${config.shutdownTimeoutMs} ms were cut`);
          return stopRedis();
        })
        .then(
          () => process.exit(0),
          (error: Error) => {
            logger.error(`stopping failed: ${error.message}`);
            process.exit(1);
          },
        );
    });
  }
}

void main();
