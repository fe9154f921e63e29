import { Module } from '@nestjs/common';
import { DocumentCommands } from './command-runner';
import { EventStore } from './event-store.service';

@Module({ providers: [EventStore, DocumentCommands], exports: [EventStore, DocumentCommands] })
export class EventStoreModule {}
