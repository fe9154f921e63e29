import type { ToolDetail } from '../../contract/listing-views';
import { PageContext } from '../shared/layout';
import { Wide } from '../shared/parts';
import { listingText } from './listing-messages';

/**
 * The head's status: beta or deprecated as the editors say; otherwise what the prober found (answering,
 * partly, not answering), or that it has not checked yet. Never a green badge for health nobody measured.
 */
export function HealthBadge({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  if (tool.status !== 'online') return <span class={`badge ${tool.status}`}>{t.listingStatuses[tool.status]}</span>;
  const liveness = tool.liveness;
  if (!liveness) return <span class="badge unchecked">{t.liveStates.unchecked}</span>;
  return (
    <a class={`badge ${liveness.state === 'ok' ? 'online' : 'warn'}`} href="#liveness">
      {t.liveStates[liveness.state]}
    </a>
  );
}

/** What the prober last published of the listing's targets. */
export function LivenessView({ ctx, liveness }: { ctx: PageContext; liveness: ToolDetail['liveness'] }) {
  const t = listingText(ctx.lang);
  if (!liveness) return <p class="muted">{t.liveStates.unchecked}</p>;
  return (
    <>
      <p>
        <span class={`badge ${liveness.state === 'ok' ? 'online' : 'warn'}`}>{t.liveStates[liveness.state]}</span>{' '}
        <time datetime={liveness.checkedAt}>{t.dateTime(liveness.checkedAt)}</time>
        {liveness.failingSince && (
          <>
            {' '}
            · {t.livenessFailingSince} <time datetime={liveness.failingSince}>{t.dateTime(liveness.failingSince)}</time>
          </>
        )}
        {liveness.lastOk && liveness.state !== 'ok' && (
          <>
            {' '}
            · {t.livenessLastOk} <time datetime={liveness.lastOk}>{t.dateTime(liveness.lastOk)}</time>
          </>
        )}
      </p>
      <Wide ctx={ctx} label={t.livenessTitle}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t.livenessTarget}</th>
              <th scope="col">{t.livenessUrl}</th>
              <th scope="col">{t.status}</th>
              <th scope="col">{t.livenessTime}</th>
            </tr>
          </thead>
          <tbody>
            {liveness.targets.map((target) => (
              <tr>
                <td>{t.targetKinds[target.kind]}</td>
                <td>
                  <code>{target.url}</code>
                </td>
                <td>
                  {t.targetStates[target.state]}
                  {target.httpStatus !== null && ` (${target.httpStatus})`}
                </td>
                <td>{target.timeMs === null ? '–' : `${target.timeMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
      <p class="small muted">{t.livenessNote}</p>
    </>
  );
}

