import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { LivenessProber } from './liveness-prober';
import { ProbeSchedule } from './probe-schedule';

/** The prober: one pass (`ingest probe`) or passes on a schedule under a lease (`ingest probe --schedule`). Never part of the service. */
@Module({
  imports: [EventStoreModule],
  providers: [LivenessProber, ProbeSchedule],
  exports: [LivenessProber, ProbeSchedule],
})
export class ProberModule {}
