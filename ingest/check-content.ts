import { join } from 'node:path';
import { CategoryCatalog } from '../src/catalog/category-catalog';
import { formatProblem, loadContent } from '../src/content/content-files';
import { checkContent } from '../src/content/content-rules';

/**
 * `npm run check:content [folder]`: checks the content folder (default fixtures/) without touching Redis:
 * the schema of every file, references between them, then the editorial rules (URLs on the provider's
 * domains, real Chinese, examples with credentials from the environment, code that parses, no
 * near-duplicates). Prints `file: field: reason` per problem; exits 1 when there is any.
 */
async function main(): Promise<void> {
  const folder = process.argv[2] ?? 'fixtures';
  let categories: CategoryCatalog;
  try {
    categories = CategoryCatalog.fromDirectory(folder);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const content = await loadContent([join(folder, 'listings'), join(folder, 'errors')], categories);
  const problems = [...content.problems, ...checkContent(content.listings, content.errorEntries)];
  for (const problem of problems) console.error(formatProblem(problem));
  const counts = `${content.listings.length} listings, ${content.errorEntries.length} error entries, ${categories.all.length} categories`;
  if (problems.length > 0) {
    console.error(`content check failed: ${problems.length} problem(s) in ${counts}`);
    process.exit(1);
  }
  console.log(`content check passed: ${counts}`);
}

void main();
