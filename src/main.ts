import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp, seedIfEmpty, startProjector } from './bootstrap';
import { AppConfig } from './config/app-config';
import { ensureLocalRedis, stopLocalRedis } from './redis/local-redis';

async function main(): Promise<void> {
  const config = new AppConfig();
  const localRedis = await ensureLocalRedis(config.redisUrl, process.env.DATA_DIR ?? 'data', (line) => console.log(line));
  const app = await createApp(config);
  const logger = app.get(Logger);
  const stopRedis = () => stopLocalRedis(localRedis);
  process.once('exit', () => localRedis?.kill('SIGTERM'));
  try {
    await app.init();
    const seeded = await seedIfEmpty(app, config);
    if (seeded) logger.log(seeded);
    startProjector(app, config);
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
      void app
        .close()
        .then(stopRedis)
        .finally(() => process.exit(0));
    });
  }
}

void main();
