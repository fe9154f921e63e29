import { CommandBus } from '@nestjs/cqrs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { ProjectionRunner } from '../../src/projections/projection-runner.service';
import { WithdrawErrorEntryCommand } from '../../src/error-reference/commands/withdraw-error-entry/withdraw-error-entry.command';
import { WithdrawListingCommand } from '../../src/listings/commands/withdraw-listing/withdraw-listing.command';

interface WithdrawOptions {
  actor: string;
  reason?: string;
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
      : new WithdrawListingCommand(id, options.actor, options.reason ?? null);
    const result = await this.commandBus.execute(command);
    const what = options.error ? `error entry ${id}` : `listing ${id}`;
    if (result.outcome === 'not-found') {
      console.error(`no ${what} in the directory (never published, or already withdrawn)`);
      process.exitCode = 2;
      return;
    }
    if (result.outcome === 'conflict') {
      console.error(`conflict ${what}: ${result.detail}`);
      process.exitCode = 2;
      return;
    }
    await this.projection.ensureProjected(30_000);
    console.log(`withdrawn ${what} (version ${result.version})`);
  }

  @Option({ flags: '--actor <name>', description: 'who makes the change', defaultValue: process.env.USER ?? 'editor' })
  parseActor(value: string): string {
    return value;
  }

  @Option({ flags: '--reason <text>', description: 'why (recorded on the event)' })
  parseReason(value: string): string {
    return value;
  }

  @Option({ flags: '--error', description: 'the id is an error entry id (provider-status-title)' })
  parseError(): boolean {
    return true;
  }
}
