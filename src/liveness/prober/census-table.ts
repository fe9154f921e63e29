import { LIVE_FILTER_VALUES, TARGET_STATES } from '../liveness.schema';
import type { Census } from './liveness-prober';

/**
 * A pass's census as text for a terminal: listings by published state, targets by what this pass saw, and
 * each listing that is not ok or had a failure (a failure seen once is marked "not yet published").
 */
export function censusTable(census: Census): string {
  const lines: string[] = [];
  lines.push(`liveness census, ${census.startedAt} (${(census.tookMs / 1000).toFixed(1)} s): ${census.listings} listings, ${census.targets} targets, ${census.events} changes published`);
  lines.push('');
  lines.push(table(['listing state', 'listings'], LIVE_FILTER_VALUES.map((state) => [state, String(census.listingStates[state])])));
  lines.push('');
  lines.push(table(['target state', 'targets'], TARGET_STATES.filter((state) => census.targetStates[state] > 0).map((state) => [state, String(census.targetStates[state])])));
  if (census.failing.length > 0) {
    lines.push('');
    const rows = census.failing.flatMap(({ slug, state, failures, pending }) =>
      failures.length === 0
        ? [[slug, state, '', '', '', '']]
        : failures.map((f, i) => [
            i === 0 ? slug : '',
            i === 0 ? state + (pending ? ' (failure not yet published)' : '') : '',
            f.kind,
            f.url,
            f.state + (f.httpStatus ? ` ${f.httpStatus}` : ''),
            f.detail ?? '',
          ]),
    );
    lines.push(table(['failing listing', 'published state', 'target', 'url', 'seen', 'detail'], rows));
  }
  return lines.join('\n');
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
