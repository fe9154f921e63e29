/**
 * Whether a request's `Accept` prefers HTML to JSON (RFC 9110: each media type gets the weight of the
 * most specific range that matches it; a missing header accepts anything). A browser's
 * `text/html,...,*\/*;q=0.8` does; curl's `*\/*`, a missing header and `application/json` do not: on a tie
 * the agents' JSON wins.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').map((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { range: range.trim(), weight: Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0 };
  });
  const weightOf = (type: string) => {
    const [major] = type.split('/');
    let best: { specificity: number; weight: number } | null = null;
    for (const { range, weight } of ranges) {
      const specificity = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
      if (specificity > 0 && (best === null || specificity > best.specificity)) best = { specificity, weight };
    }
    return best?.weight ?? 0;
  };
  return weightOf('text/html') > weightOf('application/json');
}
