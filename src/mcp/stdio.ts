#!/usr/bin/env node
import 'reflect-metadata';
import { ConsoleLogger, DynamicModule, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AppConfig, settingsOrExit } from '../config/app-config';
import { CoreModule } from '../core.module';
import { ImportModule } from '../catalog/import/import.module';
import { seedIfEmpty } from '../catalog/import/seed-if-empty';
import { ProjectionsModule } from '../projections/projections.module';
import { DirectoryMcpServer } from './directory-mcp-server';
import { McpModule } from './mcp.module';

/**
 * `api-directory-mcp` (`npm run mcp`): the MCP server over stdio, for agents that start it themselves,
 * against the directory in REDIS_URL (REDIS_NAMESPACE, like the API). No HTTP: a Nest application
 * context with the query handlers, the projection runner (unless PROJECTOR=off, as in the API) and the
 * import that seeds an empty store from fixtures/. stdout carries the protocol only; logs go to stderr.
 */
@Module({})
class McpStdioModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: McpStdioModule,
      imports: [
        CoreModule.register(config),
        CqrsModule.forRoot(),
        ProjectionsModule.register({ runInBackground: config.projectorEnabled }),
        ImportModule,
        McpModule,
      ],
    };
  }
}

/** Nest's console logger, on stderr: stdout belongs to the protocol. */
class StderrLogger extends ConsoleLogger {
  protected printMessages(messages: unknown[], context?: string, logLevel?: LogLevel, _stream?: 'stdout' | 'stderr', errorStack?: unknown): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/** LOG_LEVEL (pino's names) as Nest's levels. */
function nestLevels(level: string): LogLevel[] {
  const order: Array<[string, LogLevel]> = [['fatal', 'fatal'], ['error', 'error'], ['warn', 'warn'], ['info', 'log'], ['debug', 'debug'], ['trace', 'verbose']];
  const upTo = order.findIndex(([name]) => name === level);
  return upTo < 0 ? [] : order.slice(0, upTo + 1).map(([, nest]) => nest);
}

async function main(): Promise<void> {
  const config = settingsOrExit();
  // Warnings and errors only unless LOG_LEVEL says otherwise: start-up chatter ends up in the client's log.
  const logger = new StderrLogger('mcp', { logLevels: nestLevels(process.env.LOG_LEVEL ? config.logLevel : 'warn'), colors: false });
  const app = await NestFactory.createApplicationContext(McpStdioModule.register(config), { logger });
  try {
    const seeded = await seedIfEmpty(app, config);
    if (seeded) logger.log(seeded);
  } catch (error) {
    // The tools report an unreachable store themselves; the server still starts and answers.
    logger.warn(`could not check the event store: ${(error as Error).message}`);
  }
  const server = app.get(DirectoryMcpServer).create();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server
      .close()
      .then(() => app.close())
      .finally(() => process.exit(0));
  };
  // The client ends the session by closing our stdin (or with a signal).
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.server.onclose = stop;
  await server.connect(new StdioServerTransport());
}

void main();
