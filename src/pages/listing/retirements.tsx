import type { ToolDetail } from '../../contract/listing-views';
import { PAGE_PATHS } from '../page-paths';
import { href, PageContext } from '../shared/layout';
import { ExternalLink } from '../shared/parts';
import { listingRetiring, retiringModels } from './decision';
import { listingText } from './listing-messages';

/**
 * The retirement banner near the top of a listing page: the listing itself deprecated or shutting down, and
 * every model of it that is (soonest first), each with its day, what to move to, and the migration guide.
 * Nothing when nothing is going away.
 */
export function RetirementBanner({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const self = listingRetiring(tool) ? tool.lifecycle! : null;
  const models = retiringModels(tool);
  if (!self && models.length === 0) return null;
  return (
    <section class="alert retirements" id="retirements" aria-labelledby="retirements-title">
      <h2 id="retirements-title">{t.bannerTitle}</h2>
      {self && (
        <p>
          <strong>{t.bannerListing(self.retiresAt)}</strong>
          {self.replacedBy && self.replacedBy.length > 0 && (
            <>
              {' '}
              {t.moveTo}{' '}
              {self.replacedBy.map((slug, i) => (
                <>
                  {i > 0 && ', '}
                  <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
                </>
              ))}
            </>
          )}
          {self.migrationUrl && (
            <>
              {' · '}
              <ExternalLink url={self.migrationUrl}>{t.migrationGuide}</ExternalLink>
            </>
          )}
        </p>
      )}
      {models.length > 0 && (
        <ul>
          {models.map(({ model, lifecycle, successors }) => (
            <li>
              <a href={href(ctx, PAGE_PATHS.model(model.entry))}>{model.name}</a> <code>{model.id}</code>: {t.bannerModel(lifecycle.retiresAt)}
              {' · '}
              {successors.length === 0 ? (
                <span class="muted">{t.noSuccessor}</span>
              ) : (
                <>
                  {t.moveTo}{' '}
                  {successors.map((successor, i) => (
                    <>
                      {i > 0 && ', '}
                      {successor.entry ? <a href={href(ctx, PAGE_PATHS.model(successor.entry))}>{successor.name}</a> : <code>{successor.id}</code>}
                    </>
                  ))}
                </>
              )}
              {lifecycle.migrationUrl && (
                <>
                  {' · '}
                  <ExternalLink url={lifecycle.migrationUrl}>{t.migrationGuide}</ExternalLink>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
