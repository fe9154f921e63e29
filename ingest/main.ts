import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { AppConfig, InvalidSettingsError } from '../src/config/app-config';
import { describeRedisError } from '../src/redis/redis-errors';
import { RedisStartupError, waitForRedis } from '../src/redis/wait-for-redis';
import { IngestCliModule } from './ingest-cli.module';

/**
 * `npm run ingest -- <command>`: ingest files, withdraw, history, rebuild, export, project. Works from any
 * directory (paths are taken from where it runs; the categories from the package's fixtures/ unless
 * FIXTURES_DIR says otherwise).
 *
 * Exit codes (ingest/exit-codes.ts; docs/editors.md, "Exit codes"), the highest when several apply:
 * 0 done, and the read models show it; 1 invalid input (files, arguments, settings), nothing written;
 * 2 a conflict or an unknown id was reported, the rest written; 3 stopped part-way (Redis unreachable, a
 * failing command, Ctrl-C): what was written is printed, and re-running is safe; 4 written, but the read
 * models are stale (no projector applied it within the wait and this process could not).
 */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = new AppConfig();
  } catch (error) {
    if (!(error instanceof InvalidSettingsError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
    return;
  }
  try {
    // A Redis still loading its data is waited for (saying so); one that is not there is reported by the
    // command (exit 3), and credentials or TLS it refuses here, in one line (exit 1: a setting is wrong).
    await waitForRedis(config, { log: (line) => console.error(line), waitFor: 'loading' });
  } catch (error) {
    if (!(error instanceof RedisStartupError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
    return;
  }
  await CommandFactory.run(IngestCliModule.register(config), {
    logger: ['error', 'warn'],
    // Bad usage: commander exits right after this handler, so there is nothing to wait for.
    errorHandler: (error) => {
      console.error(error.message);
      process.exit(1);
    },
    // A failed command: main() returns next, and exit() below ends with this code once output is written.
    serviceErrorHandler: (error) => {
      console.error(describeRedisError(error));
      process.exitCode = 1;
    },
  });
}

/**
 * Exits once everything printed has been written: output to a pipe is written asynchronously, and
 * exiting at once lost the end of a long report (the summary of a 100,000-file ingest) when the reader
 * was slower than the writer. Exits explicitly because connections and threads may still be open.
 */
async function exit(code: number): Promise<void> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}

void main().then(() => exit(Number(process.exitCode ?? 0)));
