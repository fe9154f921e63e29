import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadModels } from '../../projections/read-models.service';
import { storedBody, StoredBody } from '../../http/stored-body';
import { ListCategoriesQuery } from './list-categories.query';

/** Before anything is projected the directory is empty, not missing. */
const NOTHING_YET = storedBody('{"success":true,"total":0,"totalListings":0,"categories":[],"_links":{}}');

/** The stored category list (its counts are kept equal to the listings by the projector). */
@QueryHandler(ListCategoriesQuery)
export class ListCategoriesHandler implements IQueryHandler<ListCategoriesQuery, StoredBody> {
  constructor(private readonly readModels: ReadModels) {}

  async execute(): Promise<StoredBody> {
    return (await this.readModels.categories()) ?? NOTHING_YET;
  }
}
