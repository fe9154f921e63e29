import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ChildProcess } from 'node:child_process';
import { Logger } from 'nestjs-pino';
import { createApp, listen, seedIfEmpty } from './bootstrap';
import { settingsOrExit } from './config/app-config';
import { drainAndClose } from './operations/shutdown';
import { ensureLocalRedis, stopLocalRedis } from './redis/local-redis';
import { waitForRedis } from './redis/wait-for-redis';
import { describeStartupError } from './startup-errors';

/** Time allowed, past the requests' deadline, for the projector and Redis to stop. */
const STOP_GRACE_MS = 5000;

async function main(): Promise<void> {
  const config = settingsOrExit();
  let localRedis: ChildProcess | null = null;
  let app: NestFastifyApplication | null = null;
  process.once('exit', () => localRedis?.kill('SIGTERM'));
  try {
    localRedis = await ensureLocalRedis(config, (line) => console.log(line));
    // Redis may start after the service, be restarting or still loading its data: wait, saying so.
    await waitForRedis(config, { log: (line) => console.log(line), waitFor: 'anything' });
    app = await createApp(config);
    await app.init();
    const seeded = await seedIfEmpty(app, config);
    // On stdout with the other start-up lines, in order (the logger's own stream may write it after them).
    if (seeded) console.log(seeded);
    await listen(app, config.port, config.host);
  } catch (error) {
    // One line that says what is wrong, never a stack: the operator has a setting or a service to fix.
    console.error(`cannot start: ${describeStartupError(error, config)}`);
    await app?.close().catch(() => undefined);
    await stopLocalRedis(localRedis);
    process.exit(1);
  }
  const logger = app.get(Logger);
  const shown = config.publicBaseUrl ?? `http://localhost:${config.port}`;
  console.log(`API directory serving on ${shown}  (try ${shown}/api/v1/tools/categories)`);
  const running = app;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.log(`${signal}: no new connections; requests in flight have ${config.shutdownTimeoutMs} ms to finish`);
      // Should stopping itself hang (a store that never answers), the process still ends, and says so.
      setTimeout(() => {
        logger.error(`still stopping ${STOP_GRACE_MS} ms after the requests' deadline: exiting anyway`);
        process.exit(1);
      }, config.shutdownTimeoutMs + STOP_GRACE_MS).unref();
      void drainAndClose(running, config.shutdownTimeoutMs)
        .then((finished) => {
          if (!finished) logger.warn(`requests still in flight after ${config.shutdownTimeoutMs} ms were cut`);
          return stopLocalRedis(localRedis);
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
