import { Command, CommandRunner } from 'nest-commander';
import { ProjectionRunner } from '../../src/projections/projection-runner.service';

/**
 * `project`: run the projection runner as a process of its own (for services started with
 * PROJECTOR=off). Runs until SIGINT or SIGTERM; only one runner is active at a time (lease).
 */
@Command({ name: 'project', description: 'run the projection runner in this process until stopped' })
export class ProjectCommand extends CommandRunner {
  constructor(private readonly projection: ProjectionRunner) {
    super();
  }

  async run(): Promise<void> {
    this.projection.start();
    console.log('projection runner started');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await this.projection.stop();
  }
}
