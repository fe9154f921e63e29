import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { createBrotliCompress, createGzip, constants } from 'node:zlib';
import { z } from 'zod';
import { exportSchema } from '../contract/responses';
import { chooseEncoding } from '../http/compression';
import { ApiProblem } from '../http/problem';
import { parseMoment, QueryParams, single } from '../http/query-params';
import { CACHE_CONTROL, matchesEtag, sendJson } from '../http/send-json';
import { ReadModels } from '../projections/read-models.service';
import { ResponseCache } from '../projections/response-cache';
import { storedBody } from '../http/stored-body';
import { CatalogExport, CatalogSnapshot } from './catalog-export';
import { ExportGate } from './export-gate';

/** The export's JSON Schema (draft 2020-12), from the published zod schema: made once. */
const EXPORT_JSON_SCHEMA = storedBody(JSON.stringify({ $id: '/api/v1/export.schema.json', ...z.toJSONSchema(exportSchema) }));

/**
 * GET /api/v1/export (and ?asOf=): the whole catalog, streamed, consistent with a change-feed cursor;
 * GET /api/v1/export.schema.json: its JSON Schema; GET /api/data and /api/data.json: the same data in
 * the shape the public directory serves there (a JSON array of listings, each with `_meta`).
 */
@Controller()
export class ExportController {
  constructor(
    private readonly exporter: CatalogExport,
    private readonly readModels: ReadModels,
    private readonly responses: ResponseCache,
    private readonly gate: ExportGate,
  ) {}

  @Get('api/v1/export')
  async export(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const asOf = parseMoment(single(request.query as QueryParams, 'asOf'), 'asOf');
    const snapshot = await this.exporter.snapshot(await this.checkpoint(), asOf);
    return this.stream(request, reply, snapshot, 'export', () => this.exporter.json(snapshot));
  }

  @Get('api/v1/export.schema.json')
  schema(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendJson(request, reply, EXPORT_JSON_SCHEMA);
  }

  @Get(['api/data', 'api/data.json'])
  async publicDirectoryData(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const snapshot = await this.exporter.snapshot(await this.checkpoint(), null);
    return this.stream(request, reply, snapshot, 'data', () => this.exporter.publicDirectoryArray(snapshot));
  }

  /** The position the read models being served have reached: an export never runs ahead of the API. */
  private async checkpoint(): Promise<string> {
    await this.readModels.categories(); // waits for the read models, like any read
    const checkpoint = this.responses.checkpointNow();
    if (checkpoint === null) throw new ApiProblem(503, 'store-unavailable', 'Service unavailable', 'the directory has no read models yet; retry shortly');
    return checkpoint;
  }

  /**
   * Sends pieces as they are made, compressed as the client accepts, under a weak ETag naming the position
   * (the same position gives the same content): a client that has it gets 304 before anything is read.
   */
  private stream(request: FastifyRequest, reply: FastifyReply, snapshot: CatalogSnapshot, kind: string, pieces: () => AsyncIterable<string | Buffer>): FastifyReply {
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    const etag = `W/"${kind}-${snapshot.position}${snapshot.asOf ? `-${Date.parse(snapshot.asOf)}` : ''}${encoding ? `-${encoding}` : ''}"`;
    reply.header('etag', etag).header('cache-control', CACHE_CONTROL).header('vary', 'Accept-Encoding');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    // A client that has it costs nothing; one that streams takes a slot until its answer ends.
    this.gate.enter(request, reply);
    reply.header('content-type', 'application/json; charset=utf-8');
    // A few pieces (listings) wait at most: the next share is read only when the client has taken the last ones.
    const body = Readable.from(pieces(), { highWaterMark: 16 });
    if (encoding === null) return reply.send(body);
    // Brotli at a middle quality: a large export compresses while it streams without holding the CPU long.
    const compressor = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip();
    return reply.header('content-encoding', encoding).send(body.pipe(compressor));
  }
}
