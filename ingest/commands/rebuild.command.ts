import { Command, CommandRunner } from 'nest-commander';
import { ProjectionRunner } from '../../src/projections/projection-runner.service';

/** `rebuild`: build a new generation of read models from the whole log and switch to it atomically. */
@Command({ name: 'rebuild', description: 'rebuild every read model from the event log, then switch to it in one step' })
export class RebuildCommand extends CommandRunner {
  constructor(private readonly projection: ProjectionRunner) {
    super();
  }

  async run(): Promise<void> {
    let lastShown = 0;
    const report = await this.projection.rebuild((applied, total) => {
      const percent = Math.floor((applied / total) * 100);
      if (percent >= lastShown + 10 || applied === total) {
        lastShown = percent;
        console.error(`rebuilding: ${applied}/${total} events (${percent}%)`);
      }
    });
    const { indexMs, renderMs, catchUpMs } = report.phases;
    console.log(`rebuilt generation ${report.generation} from ${report.events} events in ${report.milliseconds} ms; it is live now`);
    console.error(`time: reading and indexing ${indexMs} ms, rendering ${renderMs} ms, catching up ${catchUpMs} ms`);
  }
}
