import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';

/** GET /metrics: this process's metrics for Prometheus (text format 0.0.4). */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  async scrape(@Res() reply: FastifyReply): Promise<FastifyReply> {
    const text = await this.metrics.scrape();
    return reply.header('content-type', this.metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  }
}
