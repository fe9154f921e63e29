import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { AppConfig } from '../src/config/app-config';
import { IngestCliModule } from './ingest-cli.module';

/**
 * `npm run ingest -- <command>`: ingest files, withdraw, history, rebuild, export, project.
 * Exit codes: 0 done, 1 invalid input (nothing written), 2 a conflict or an unknown id was reported.
 */
async function main(): Promise<void> {
  await CommandFactory.run(IngestCliModule.register(new AppConfig()), {
    logger: ['error', 'warn'],
    errorHandler: (error) => {
      console.error(error.message);
      process.exit(1);
    },
    serviceErrorHandler: (error) => {
      console.error(error.message);
      process.exit(1);
    },
  });
}

void main().then(() => process.exit(process.exitCode ?? 0));
