import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { hasHan, SLUG_PATTERN } from '../validation/validation';

export interface Category {
  slug: string;
  name: string;
  nameCn: string;
}

/**
 * The categories of the directory with their English and Chinese names, from `fixtures/categories.yaml`.
 * A listing's category must be one of them; their order is the order of GET /tools/categories.
 */
export class Categories {
  readonly all: Category[];
  private readonly bySlug: Map<string, Category>;

  constructor(categories: Category[]) {
    this.all = categories;
    this.bySlug = new Map(categories.map((c) => [c.slug, c]));
  }

  static fromDirectory(fixturesDir: string): Categories {
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
    return new Categories(categories);
  }

  get(slug: string): Category | undefined {
    return this.bySlug.get(slug);
  }

  has(slug: string): boolean {
    return this.bySlug.has(slug);
  }
}
