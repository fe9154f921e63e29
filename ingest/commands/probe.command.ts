import { Command, CommandRunner, Option } from 'nest-commander';
import { AppConfig } from '../../src/config/app-config';
import { censusTable } from '../../src/liveness/prober/census-table';
import { LivenessProber } from '../../src/liveness/prober/liveness-prober';
import { ProbeSchedule } from '../../src/liveness/prober/probe-schedule';
import { EXIT } from '../exit-codes';

interface ProbeOptions {
  schedule?: boolean;
}

/**
 * `probe`: check that what every listing points at still answers, once, and print the census (listings by
 * state, targets by state, the failing listings); with --schedule, pass after pass under the prober's
 * lease until SIGINT or SIGTERM. This contacts the providers' hosts: it is never run by the service.
 */
@Command({ name: 'probe', description: "probe every listing's website, docs, endpoints, API description and status page once, and print the census (--schedule: keep probing)" })
export class ProbeCommand extends CommandRunner {
  constructor(
    private readonly prober: LivenessProber,
    private readonly schedule: ProbeSchedule,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_args: string[], options: ProbeOptions): Promise<void> {
    if (!this.config.liveness.contactUrl) {
      console.error('LIVENESS_CONTACT_URL (or PUBLIC_BASE_URL): set it to a page that says who runs this directory; every probe names it in its User-Agent');
      process.exitCode = EXIT.invalidInput;
      return;
    }
    if (!options.schedule) {
      console.log(censusTable(await this.prober.pass()));
      return;
    }
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    const { intervalMs, jitterMs } = this.config.liveness;
    console.log(`prober started: a pass every ${intervalMs / 1000} s plus up to ${jitterMs / 1000} s, while this process holds the lease`);
    await this.schedule.run(stop.signal, (census) => console.log(censusTable(census)));
    console.log('prober stopped');
  }

  @Option({ flags: '--schedule', description: 'keep probing on the schedule (LIVENESS_INTERVAL_MS, LIVENESS_JITTER_MS), one prober at a time across processes' })
  parseSchedule(): boolean {
    return true;
  }
}
