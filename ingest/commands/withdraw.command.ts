import { CommandBus } from '@nestjs/cqrs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { PROJECTION_WAIT_MS } from '../../src/import/import-catalog.handler';
import { ProjectionRunner } from '../../src/projections/projection-runner.service';
import { EXIT, reportStaleReadModels } from '../exit-codes';
import { WithdrawErrorEntryCommand } from '../../src/error-reference/commands/withdraw-error-entry/withdraw-error-entry.command';
import { WithdrawListingCommand } from '../../src/listings/commands/withdraw-listing/withdraw-listing.command';

interface WithdrawOptions {
  actor: string;
  reason?: string;
  replacedBy?: string[];
  error?: boolean;
}

/** `withdraw <slug>`: take a listing (or, with --error, an error entry) out of the directory. */
@Command({ name: 'withdraw', arguments: '<id>', description: 'withdraw a listing by slug (or an error entry by id with --error)' })
export class WithdrawCommand extends CommandRunner {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly projection: ProjectionRunner,
  ) {
    super();
  }

  async run([id]: string[], options: WithdrawOptions): Promise<void> {
    const command = options.error
      ? new WithdrawErrorEntryCommand(id, options.actor, options.reason ?? null)
      : new WithdrawListingCommand(id, options.actor, options.reason ?? null, options.replacedBy ?? []);
    const result = await this.commandBus.execute(command);
    const what = options.error ? `error entry ${id}` : `listing ${id}`;
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
    const projection = await this.projection.ensureProjected(PROJECTION_WAIT_MS);
    console.log(`withdrawn ${what} (version ${result.version})`);
    if (projection === 'pending') {
      reportStaleReadModels(`no projector applied the withdrawal within ${PROJECTION_WAIT_MS / 1000} s, and this process could not take over: ${await this.projection.whyNotProjecting()}`);
    }
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
}
