import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../http/problem';
import { ReadModels } from '../../read-models/read-models.service';
import { API_PREFIX } from '../../rendering/listing-views';
import type { StoredBody } from '../../rendering/stored-body';
import { GetToolQuery } from './get-tool.query';

/** The stored detail of a listing; an unknown slug is a 404 that suggests a search. */
@QueryHandler(GetToolQuery)
export class GetToolHandler implements IQueryHandler<GetToolQuery, StoredBody> {
  constructor(private readonly readModels: ReadModels) {}

  async execute({ slug }: GetToolQuery): Promise<StoredBody> {
    const stored = await this.readModels.detail(slug);
    if (!stored) {
      throw notFound(`no tool with slug '${slug}'; search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(slug)}`, { slug });
    }
    return stored;
  }
}
