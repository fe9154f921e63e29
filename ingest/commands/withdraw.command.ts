import { CommandBus } from '@nestjs/cqrs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { PROJECTION_WAIT_MS } from '../../src/catalog/import/import-catalog.handler';
import { WithdrawalReport, WithdrawFromDirectoryCommand } from '../../src/catalog/import/withdraw-from-directory.command';
import { EXIT, reportStaleReadModels } from '../exit-codes';
import { KIND_NAMES } from './ingest.command';

interface WithdrawOptions {
  actor: string;
  reason?: string;
  replacedBy?: string[];
  error?: boolean;
  model?: boolean;
}

/** `withdraw <slug>`: take a listing (or, with --error, an error entry; with --model, a model entry) out of the directory. */
@Command({ name: 'withdraw', arguments: '<id>', description: 'withdraw a listing by slug (or an error entry by id with --error, a model entry with --model)' })
export class WithdrawCommand extends CommandRunner {
  constructor(private readonly commandBus: CommandBus) {
    super();
  }

  async run([id]: string[], options: WithdrawOptions): Promise<void> {
    const kind = options.error ? 'error-entry' : options.model ? 'model' : 'listing';
    const { result, projection, pendingBecause }: WithdrawalReport = await this.commandBus.execute(
      new WithdrawFromDirectoryCommand(kind, id, options.actor, options.reason ?? null, options.replacedBy ?? [], PROJECTION_WAIT_MS),
    );
    const what = `${KIND_NAMES[kind]} ${id}`;
    if (result.outcome === 'not-found') {
      console.error(`no ${what} in the directory (never published, or already withdrawn)`);
      process.exitCode = EXIT.conflict;
      return;
    }
    if (result.outcome === 'refused') {
      console.error(`${what} not withdrawn: ${result.detail}`);
      process.exitCode = EXIT.invalidInput;
      return;
    }
    if (result.outcome === 'conflict') {
      console.error(`conflict ${what}: ${result.detail}`);
      process.exitCode = EXIT.conflict;
      return;
    }
    console.log(`withdrawn ${what} (version ${result.version})`);
    if (projection === 'pending') reportStaleReadModels(pendingBecause!);
  }

  @Option({ flags: '--actor <name>', description: 'who makes the change', defaultValue: process.env.USER ?? 'editor' })
  parseActor(value: string): string {
    return value;
  }

  @Option({ flags: '--reason <text>', description: 'why (recorded on the event)' })
  parseReason(value: string): string {
    return value;
  }

  @Option({ flags: '--replaced-by <slugs>', description: 'listings that replace it, comma-separated (its detail then answers 410 naming them)' })
  parseReplacedBy(value: string): string[] {
    return value.split(',').map((slug) => slug.trim()).filter(Boolean);
  }

  @Option({ flags: '--error', description: 'the id is an error entry id (provider-status-title)' })
  parseError(): boolean {
    return true;
  }

  @Option({ flags: '--model', description: 'the id is a model entry id (fixtures/models/<id>.yaml)' })
  parseModel(): boolean {
    return true;
  }
}
