import { Command, CommandRunner } from 'nest-commander';
import { ProjectionRunner } from '../../src/projections/projection-runner.service';

/**
 * `rebuild`: build a new generation of read models from the whole log and switch to it atomically. It
 * holds the projector lease meanwhile; when a running service holds it, that service is asked to rebuild.
 */
@Command({ name: 'rebuild', description: 'rebuild every read model from the event log, then switch to it in one step' })
export class RebuildCommand extends CommandRunner {
  constructor(private readonly projection: ProjectionRunner) {
    super();
  }

  async run(): Promise<void> {
    let lastShown = -10;
    const report = await this.projection.rebuild((phase, done, total) => {
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (phase === 'rendered' && (percent >= lastShown + 10 || done === total)) {
        lastShown = percent;
        console.error(`rebuilding: ${done}/${total} listings rendered (${percent}%)`);
      }
    });
    if (report.builtBy === 'running-projector') {
      console.log(`the running service rebuilt generation ${report.generation} from ${report.events} events (${report.milliseconds} ms); it is live now`);
      return;
    }
    const { readMs, renderMs, catchUpMs } = report.phases;
    console.log(`rebuilt generation ${report.generation} from ${report.events} events in ${report.milliseconds} ms; it is live now`);
    console.error(`time: reading ${readMs} ms, rendering and writing ${renderMs} ms, catching up ${catchUpMs} ms`);
  }
}
