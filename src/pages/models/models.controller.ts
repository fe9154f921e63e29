import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModelDetailResponse, ModelListResponse } from '../../contract/responses';
import { ApiProblem } from '../../http/problem';
import type { QueryParams } from '../../http/query-params';
import { GetModelQuery } from '../../models/read/detail/get-model.query';
import { listModelsQueryOf } from '../../models/read/list/list-models-params';
import { filterParams, parsePriceUnit } from '../../models/read/model-params';
import { PageErrorFilter } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS, withQuery } from '../page-paths';
import { PAGE_SIZE, PageRenderer } from '../page-renderer';
import { ModelPage } from './model';
import { ModelFormValues, ModelsPage } from './models';

/** `/models` and `/models/{id}` (and under `/zh`): the model catalog and one model, from the same answers as /api/v1/models. */
@Controller()
@UseFilters(PageErrorFilter)
export class ModelPagesController {
  constructor(private readonly pages: PageRenderer) {}

  /** The model catalog: its form, and the models of the request's filters and order. */
  @Get(['models', 'zh/models'])
  async models(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const lang = langOfPath(request.url);
    const { limit: _ignored, ...params } = request.query as QueryParams;
    const values = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, (Array.isArray(value) ? value[0] : value) ?? ''])) as ModelFormValues;
    let query;
    try {
      query = listModelsQueryOf({ ...params, limit: String(PAGE_SIZE) });
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 400) throw error;
      return pages.uncached(request, reply, lang, PAGE_PATHS.models, 400, async (ctx) => ModelsPage({ ctx, values, result: null, error: error.detail, firstPage: null, nextPage: null }));
    }
    const path = (cursor: string | null) => withQuery(PAGE_PATHS.models, [...filterParams(query.filters), ['sort', params.sort ? query.sort : null], ['cursor', cursor]]);
    return pages.page(request, reply, lang, path(query.cursor), async (ctx) => {
      const result = await pages.read<ModelListResponse>(query);
      return ModelsPage({ ctx, values, result, error: null, firstPage: query.cursor ? path(null) : null, nextPage: result.nextCursor ? path(result.nextCursor) : null });
    });
  }

  /** One model (its id may hold slashes: a model no entry names yet is <listing>/<model id>). */
  @Get(['models/*', 'zh/models/*'])
  model(@Param('*') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const query = new GetModelQuery(decodeURIComponent(id).trim().toLowerCase(), parsePriceUnit(request.query as QueryParams));
    const path = withQuery(PAGE_PATHS.model(query.id), [['priceUnit', query.priceUnit]]);
    return pages.page(request, reply, langOfPath(request.url), path, async (ctx) => ModelPage({ ctx, detail: await pages.read<ModelDetailResponse>(query) }));
  }
}
