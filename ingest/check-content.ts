import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Categories } from '../src/categories/categories';
import { PACKAGE_ROOT } from '../src/config/app-config';
import { formatProblem, loadContent } from '../src/catalog/content/content-files';
import { pastShutdowns, SHUTDOWN_NOTICE_DAYS, STALE_AFTER_DAYS, staleListings, unsourcedFacts, upcomingShutdowns } from '../src/catalog/content/content-rules';
import { isIsoDate } from '../src/contract/validation';

/**
 * `npm run check:content [folder]`: checks the content folder (default: the package's fixtures/, from any
 * directory) without touching Redis, with the rules `ingest` applies (src/catalog/content/: the schema of every
 * file, references between them, the editorial and text rules), the folder standing for the whole
 * directory: an ingest of it as a dry run, without a store. Prints `file: field: reason` per problem;
 * exits 1 when there is any.
 *
 * It also warns, in the same form, about listings whose `lastUpdated` is older than STALE_AFTER_DAYS: those
 * are due for a re-check (each fact whose check has grown stale is named); and about listings and models
 * whose announced shutdown has passed but are not marked retired (ingest refuses those files). Warnings never change the exit code, so the check does not start failing just
 * because time passed. `CONTENT_CHECK_TODAY=YYYY-MM-DD` sets the day they are counted from (default: today).
 * It names the shutdowns coming within SHUTDOWN_NOTICE_DAYS (the day after each, ingest refuses the file
 * until it is marked retired). Last, it names the listings that give no source for auth, free tier and
 * OpenAI compatibility: the backlog of facts still to check against the providers' own pages.
 */
async function main(): Promise<void> {
  const folder = process.argv[2] ?? join(PACKAGE_ROOT, 'fixtures');
  const todaySetting = process.env.CONTENT_CHECK_TODAY;
  if (todaySetting !== undefined && todaySetting !== '' && !isIsoDate(todaySetting)) {
    console.error(`CONTENT_CHECK_TODAY: must be a date as YYYY-MM-DD, not '${todaySetting}'`);
    process.exit(1);
  }
  const today = todaySetting ? new Date(`${todaySetting}T00:00:00Z`) : new Date();
  let categories: Categories;
  try {
    categories = Categories.fromDirectory(folder);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // fixtures/models/ (the model entries) may not exist in an older content folder.
  const content = await loadContent(['listings', 'models', 'errors'].map((name) => join(folder, name)).filter((path) => !path.endsWith('models') || existsSync(path)), categories);
  const { problems } = content;
  const warnings = [...staleListings(content.listings, today), ...pastShutdowns(content.listings, today)];
  for (const problem of problems) console.error(formatProblem(problem));
  for (const warning of warnings) console.error(formatProblem(warning));
  const counts = `${content.listings.length} listings, ${content.modelEntries.length} model entries, ${content.errorEntries.length} error entries, ${categories.all.length} categories, ${categories.tasks.length} tasks`;
  const stale = new Set(warnings.filter((warning) => warning.field === 'lastUpdated').map((warning) => warning.file)).size;
  const past = warnings.filter((warning) => warning.reason.includes('has passed')).length;
  const due =
    (stale > 0 ? `; ${stale} listing(s) last checked more than ${STALE_AFTER_DAYS} days ago, listed above as warnings with their facts` : '') +
    (past > 0 ? `; ${past} listing or model lifecycle(s) past their shutdown and not yet retired, listed above` : '');
  if (problems.length > 0) {
    console.error(`content check failed: ${problems.length} problem(s) in ${counts}${due}`);
    process.exit(1);
  }
  console.log(`content check passed: ${counts}${due}`);
  const coming = upcomingShutdowns(content.listings, today);
  if (coming.length > 0) {
    console.log(`${coming.length} shutdown(s) within ${SHUTDOWN_NOTICE_DAYS} days: mark each retired (status, since) once its day has passed, or ingest refuses the file:`);
    for (const { file, field, name, day } of coming) console.log(`  ${day} ${file}: ${field} (${name})`);
  }
  const unsourced = unsourcedFacts(content.listings).map(({ slug, facts }) => `${slug} (${facts.join(', ')})`);
  if (unsourced.length > 0) console.log(`${unsourced.length} listing(s) give no source yet for some of auth, freeTier, openaiCompatible and contextTokens: ${unsourced.join(', ')}`);
}

void main();
