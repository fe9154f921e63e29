import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiProblem } from '../http/problem';
import { clientKey } from '../operations/client-address';

/** Seconds a client refused an export is asked to wait: an export of the catalog takes about that long. */
export const EXPORT_RETRY_AFTER_S = 5;

/**
 * How many whole-catalog exports run at once, in the process and per client. Each holds a snapshot of the
 * catalog and a compressor while it streams (brotli's window alone is megabytes): 150 at once took the
 * process from 423 MB to 2.2 GB. Past the process's bound the answer is 503 (come back soon), past a
 * client's 429 (that client is the one asking too much), both with Retry-After; a slot is given back when
 * its answer ends, completed or cut.
 */
@Injectable()
export class ExportGate {
  private running = 0;
  private readonly byClient = new Map<string, number>();

  constructor(private readonly config: AppConfig) {}

  /** Takes a slot for this request's export (given back when its answer closes), or throws the refusal. */
  enter(request: FastifyRequest, reply: FastifyReply): void {
    const client = clientKey(request.ip);
    const held = this.byClient.get(client) ?? 0;
    const retry = { 'retry-after': String(EXPORT_RETRY_AFTER_S) };
    if (held >= this.config.exportsPerClient) {
      throw new ApiProblem(429, 'rate-limited', 'Too many requests', `this client already has ${held} export(s) streaming (at most ${this.config.exportsPerClient} at once, EXPORTS_PER_CLIENT); retry when it ends`, { retryAfter: EXPORT_RETRY_AFTER_S }, retry);
    }
    if (this.running >= this.config.exportsInFlight) {
      throw new ApiProblem(503, 'busy', 'Service unavailable', `${this.running} exports are streaming (at most ${this.config.exportsInFlight} at once, EXPORTS_IN_FLIGHT); retry shortly`, { retryAfter: EXPORT_RETRY_AFTER_S }, retry);
    }
    this.running++;
    this.byClient.set(client, held + 1);
    reply.raw.once('close', () => {
      this.running--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    });
  }

  /** Exports streaming now (for tests and metrics). */
  get inFlight(): number {
    return this.running;
  }
}
