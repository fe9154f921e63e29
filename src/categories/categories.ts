import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { hasHan, SLUG_PATTERN } from '../contract/validation';

export interface Category {
  slug: string;
  name: string;
  nameCn: string;
}

/** A task a listing does (object detection, OCR...), with the words people use for it in both languages. */
export interface Task {
  slug: string;
  name: string;
  nameCn: string;
  /** Other ways to say it, in English, for search. */
  synonyms: string[];
  /** Other ways to say it, in Chinese, for search. */
  synonymsCn: string[];
}

/**
 * The directory's two vocabularies, read once at start: the categories with their English and Chinese names
 * (`fixtures/categories.yaml`; a listing's category must be one of them; their order is the order of GET
 * /tools/categories), and the tasks listings do (`fixtures/tasks.yaml`; a listing's tasks must be among them).
 */
export class Categories {
  readonly all: Category[];
  private readonly bySlug: Map<string, Category>;
  readonly tasks: Task[];
  private readonly taskBySlug: Map<string, Task>;

  constructor(categories: Category[], tasks: Task[] = []) {
    this.all = categories;
    this.bySlug = new Map(categories.map((c) => [c.slug, c]));
    this.tasks = tasks;
    this.taskBySlug = new Map(tasks.map((t) => [t.slug, t]));
  }

  static fromDirectory(fixturesDir: string): Categories {
    return new Categories(Categories.readCategories(fixturesDir), readTasks(fixturesDir));
  }

  private static readCategories(fixturesDir: string): Category[] {
    const file = join(fixturesDir, 'categories.yaml');
    const raw: unknown = parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(raw)) throw new Error(`${file}: must be a list of categories`);
    const seen = new Set<string>();
    const categories = raw.map((item: Partial<Category>, i) => {
      const where = `${file}: [${i}]`;
      if (!item || typeof item.slug !== 'string' || !SLUG_PATTERN.test(item.slug)) throw new Error(`${where}.slug: must be a slug`);
      if (seen.has(item.slug)) throw new Error(`${where}.slug: duplicate '${item.slug}'`);
      if (typeof item.name !== 'string' || !item.name) throw new Error(`${where}.name: required`);
      if (!hasHan(item.nameCn)) throw new Error(`${where}.nameCn: must contain Chinese characters`);
      seen.add(item.slug);
      return { slug: item.slug, name: item.name, nameCn: item.nameCn as string };
    });
    return categories;
  }

  get(slug: string): Category | undefined {
    return this.bySlug.get(slug);
  }

  has(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  task(slug: string): Task | undefined {
    return this.taskBySlug.get(slug);
  }
}

/** The task list, `fixtures/tasks.yaml` (none when the folder has no such file). */
function readTasks(fixturesDir: string): Task[] {
  const file = join(fixturesDir, 'tasks.yaml');
  if (!existsSync(file)) return [];
  const raw: unknown = parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: must be a list of tasks`);
  const seen = new Set<string>();
  const words = (value: unknown, where: string): string[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((word) => typeof word === 'string' && word.trim().length > 0 && word.length <= 80)) throw new Error(`${where}: must be a list of words (1-80 characters each)`);
    return value as string[];
  };
  return raw.map((item: Partial<Task>, i) => {
    const where = `${file}: [${i}]`;
    if (!item || typeof item.slug !== 'string' || !SLUG_PATTERN.test(item.slug)) throw new Error(`${where}.slug: must be a slug`);
    if (seen.has(item.slug)) throw new Error(`${where}.slug: duplicate '${item.slug}'`);
    if (typeof item.name !== 'string' || !item.name) throw new Error(`${where}.name: required`);
    if (!hasHan(item.nameCn)) throw new Error(`${where}.nameCn: must contain Chinese characters`);
    seen.add(item.slug);
    const synonymsCn = words(item.synonymsCn, `${where}.synonymsCn`);
    if (!synonymsCn.every(hasHan)) throw new Error(`${where}.synonymsCn: each must contain Chinese characters`);
    return { slug: item.slug, name: item.name, nameCn: item.nameCn as string, synonyms: words(item.synonyms, `${where}.synonyms`), synonymsCn };
  });
}
