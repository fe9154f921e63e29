import type { ToolDetail } from '../../contract/listing-views';
import type { CategoriesResponse, ToolDetailResponse } from '../../contract/responses';
import { HTML_LANG } from '../messages';
import { PAGE_PATHS } from '../page-paths';
import { webApi } from '../shared/json-ld';
import { absolute, href, Layout, PageContext } from '../shared/layout';
import { ExternalLink, localCategory, localDescription, localName, otherName, Popularity } from '../shared/parts';
import { DecisionSummary } from './decision-summary';
import { listingText } from './listing-messages';
import { HealthBadge } from './liveness';
import { RetirementBanner } from './retirements';
import { AgentFacts, CodeExamples, EndpointsAndSdks, ErrorEntries, FactsAsData, KeyFacts, LivenessSection, PricingComparison, SimilarApis, Tags } from './sections';

/** The long page's own table of contents, right below its head: every section, the ones without content left out. */
function SectionIndex({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const sections: Array<[string, string]> = [
    ['facts', t.listingFacts],
    ...(tool.models && tool.models.length > 0 ? [['models', `${t.models} (${tool.models.length})`] as [string, string]] : []),
    ['prices', t.prices],
    ['rate-limits', t.rateLimits],
    ['agent-facts', t.agentFacts],
    ['endpoints', t.endpoints],
    ['examples', t.codeExamples],
    ['errors', `${t.errorEntries} (${tool.errors.length})`],
    ['liveness', t.livenessTitle],
    ['similar', t.similarApis],
  ];
  return (
    <nav class="toc" aria-label={t.sectionIndex}>
      <ul>
        {sections.map(([id, name]) => (
          <li>
            <a href={`#${id}`}>{name}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Where to go next: the provider's site and docs, its OpenAPI document and status page where it has them. */
function ListingLinks({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
    <ul class="links">
      <li>
        <ExternalLink url={tool.website}>{t.website}</ExternalLink>
      </li>
      <li>
        <ExternalLink url={tool.docsUrl}>{t.docs}</ExternalLink>
      </li>
      {tool.openapiUrl && (
        <li>
          <ExternalLink url={tool.openapiUrl}>{t.openapi}</ExternalLink>
        </li>
      )}
      {tool.statusPageUrl && (
        <li>
          <ExternalLink url={tool.statusPageUrl}>{t.statusPage}</ExternalLink>
        </li>
      )}
    </ul>
  );
}

export function ListingPage({ ctx, detail, categories }: { ctx: PageContext; detail: ToolDetailResponse; categories: CategoriesResponse }) {
  const t = listingText(ctx.lang);
  const tool = detail.tool;
  const name = localName(ctx, tool);
  const categoryNames = new Map(categories.categories.map((c) => [c.slug, c]));
  const category = localCategory(ctx, tool, categoryNames);
  const description = localDescription(ctx, tool);
  const listingPath = PAGE_PATHS.listing(tool.slug);
  return (
    <Layout
      ctx={ctx}
      title={`${name} · ${t.siteName}`}
      description={t.listingDescription(description, category)}
      crumbs={[{ name: category, path: PAGE_PATHS.category(tool.category) }, { name }]}
      ogType="article"
      jsonLd={[webApi({ name, alternateName: otherName(ctx, tool), description, url: absolute(ctx, listingPath), inLanguage: HTML_LANG[ctx.lang], documentation: tool.docsUrl, website: tool.website, category, keywords: tool.tags, dateModified: tool.lastUpdated, sameAs: tool.website })]}
    >
      <article class="listing">
        <header>
          <h1>{name}</h1>
          <p class="other-name" lang={ctx.lang === 'zh' ? 'en' : HTML_LANG.zh}>
            {otherName(ctx, tool)}
          </p>
          <p class="meta">
            <Popularity ctx={ctx} value={tool.popularity} /> · <HealthBadge ctx={ctx} tool={tool} />
            {tool.freeTier && (
              <>
                {' · '}
                <span class="badge">{t.freeTierBadge}</span>
              </>
            )}
          </p>
          <DecisionSummary ctx={ctx} tool={tool} />
          <RetirementBanner ctx={ctx} tool={tool} />
          <p class="lead">{description}</p>
          {tool.sponsored && (
            <p class="notice" role="note">
              <strong>{t.sponsoredBadge}.</strong> {t.sponsoredNotice}
            </p>
          )}
          <ListingLinks ctx={ctx} tool={tool} />
          <SectionIndex ctx={ctx} tool={tool} />
        </header>

        <KeyFacts ctx={ctx} tool={tool} />
        <FactsAsData ctx={ctx} tool={tool} />
        <AgentFacts ctx={ctx} tool={tool} />
        <EndpointsAndSdks ctx={ctx} tool={tool} />
        <CodeExamples ctx={ctx} tool={tool} />
        <ErrorEntries ctx={ctx} tool={tool} />
        <LivenessSection ctx={ctx} tool={tool} />
        <SimilarApis ctx={ctx} tool={tool} />
        <PricingComparison ctx={ctx} tool={tool} />
        <Tags ctx={ctx} tool={tool} />
        <p class="small">
          <a href={`/api/v1/tools/${encodeURIComponent(tool.slug)}`} type="application/json">
            {t.asJson}
          </a>
        </p>
      </article>
    </Layout>
  );
}
