import { RenderState } from './render-state';

/**
 * The dependency records decide which details a change re-renders: a listing missing from them keeps
 * showing stale content, one left behind is rendered for nothing. After any sequence of updates they
 * must say exactly what each listing's latest rendering used.
 */
it('keeps usedBy and fillUsers equal to what each listing last recorded, over random updates', () => {
  const slugs = Array.from({ length: 12 }, (_, i) => `s${i}`);
  const categories = ['chat', 'vision', 'speech'];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const state = new RenderState();
  /** slug -> what it recorded last (the reference the records must match). */
  const recorded = new Map<string, { uses: string[]; filledFrom: string | null }>();

  for (let step = 0; step < 2000; step++) {
    const slug = slugs[random(slugs.length)];
    if (random(10) === 0) {
      state.forget(slug);
      recorded.delete(slug);
    } else {
      const uses = slugs.filter((other) => other !== slug && random(4) === 0);
      const filledFrom = random(3) === 0 ? null : categories[random(categories.length)];
      state.setDependencies(slug, uses, filledFrom);
      recorded.set(slug, { uses, filledFrom });
    }

    for (const category of categories) {
      const expected = [...recorded].filter(([, r]) => r.filledFrom === category).map(([s]) => s).sort();
      expect([...(state.fillUsers.get(category) ?? [])].sort()).toEqual(expected);
    }
    for (const used of slugs) {
      const expected = [...recorded].filter(([, r]) => r.uses.includes(used)).map(([s]) => s).sort();
      expect([...(state.usedBy.get(used) ?? [])].sort()).toEqual(expected);
    }
  }
});
