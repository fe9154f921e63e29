import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp, seedIfEmpty } from './bootstrap';
import { AppConfig, InvalidSettingsError } from './config/app-config';
import { ensureLocalRedis, stopLocalRedis } from './redis/local-redis';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = new AppConfig();
  } catch (error) {
    if (!(error instanceof InvalidSettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
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
      void app
        .close()
        .then(stopRedis)
        .finally(() => process.exit(0));
    });
  }
}

void main();
