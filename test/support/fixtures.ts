import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Categories } from '../../src/categories/categories';

/**
 * What the shipped content folder holds, counted from its files: the tests that read the whole directory
 * expect these numbers, so adding a listing or a model entry does not break them, and a listing lost on the
 * way does.
 */
const root = join(__dirname, '..', '..', 'fixtures');
const files = (folder: string) => readdirSync(join(root, folder)).filter((name) => /\.(ya?ml|json)$/.test(name));
const vocabularies = Categories.fromDirectory(root);

export const FIXTURES = {
  listings: files('listings').length,
  models: files('models').length,
  errors: files('errors').length,
  categories: vocabularies.all.length,
  tasks: vocabularies.tasks.length,
  /** Documents of every kind: the events of a first import, one publication each. */
  get documents(): number {
    return this.listings + this.models + this.errors;
  },
};
