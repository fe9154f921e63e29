import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../projections/read-models.module';
import { OperationsModule } from '../operations/operations.module';
import { DiscoveryController } from './discovery.controller';
import { GetLlmsTextHandler } from './llms-txt.handler';

/** Discovery for agents: GET /, llms.txt and llms-full.txt, /.well-known/api-catalog, robots.txt. */
@Module({
  imports: [ReadModelsModule, OperationsModule],
  controllers: [DiscoveryController],
  providers: [GetLlmsTextHandler],
})
export class DiscoveryModule {}
