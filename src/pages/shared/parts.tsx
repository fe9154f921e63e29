import type { ComponentChildren } from 'preact';
import type { z } from 'zod';
import type { sourceSchema } from '../../contract/listing-facts';
import type { ToolSummary } from '../../contract/listing-views';
import type { AuthType } from '../../contract/vocabulary';
import { comparePath, PAGE_PATHS } from '../page-paths';
import { href, PageContext } from './layout';

/** A listing's name and description in the page's language, and the name in the other one. */
export function localName(ctx: PageContext, item: { name: string; nameCn: string }): string {
  return ctx.lang === 'zh' ? item.nameCn : item.name;
}
export function otherName(ctx: PageContext, item: { name: string; nameCn: string }): string {
  return ctx.lang === 'zh' ? item.name : item.nameCn;
}
export function localDescription(ctx: PageContext, item: { description: string; descriptionCn: string }): string {
  return ctx.lang === 'zh' ? item.descriptionCn : item.description;
}
export function localCategory(ctx: PageContext, item: { category: string; categoryCn: string | null }, names?: Map<string, { name: string; nameCn: string }>): string {
  const known = names?.get(item.category);
  if (ctx.lang === 'zh') return item.categoryCn ?? known?.nameCn ?? item.category;
  return known?.name ?? item.category;
}

/**
 * The listings' prose beyond names and descriptions (pricing, features, tips...) is written in English
 * only: on a Chinese page it says so (`lang="en"`), for screen readers and translation tools.
 */
/** A listing's authentication scheme in the page's language, or that the provider's pages do not state one. */
export function authTypeText(ctx: PageContext, authType: AuthType | null): string {
  return authType === null ? ctx.t.notStated : ctx.t.authTypes[authType];
}

export function english(ctx: PageContext): { lang?: string } {
  return ctx.lang === 'zh' ? { lang: 'en' } : {};
}

/**
 * A link to another site, only if the address is a web address: the content rules admit https links
 * only, and a page never turns anything else (`javascript:`, `data:`) into a link, whatever it is given.
 */
export function ExternalLink({ url, children }: { url: string; children: ComponentChildren }) {
  if (!/^https?:\/\//i.test(url)) return <span>{children}</span>;
  return (
    <a href={url} rel="nofollow noopener">
      {children}
    </a>
  );
}

/** A price as the pages write it: `0.1 USD`, or with a card fee's percentage, `2.9% + 0.3 USD`. */
export function amountText(rate: { price: number; percent?: number | null }, currency: string | null): string {
  return `${rate.percent ? `${rate.percent}% + ` : ''}${rate.price}${currency ? ` ${currency}` : ''}`;
}

/** Popularity as the spec displays it: n/100. */
export function Popularity({ ctx, value }: { ctx: PageContext; value: number }) {
  return (
    <span class="pop">
      {ctx.t.popularity} <strong>{ctx.t.popularityValue(value)}</strong>
    </span>
  );
}

/** One listing in a list (search results, a category, the most popular), with a box to pick it for comparison. */
export function ListingCard({ ctx, item, pickForm, categories }: { ctx: PageContext; item: ToolSummary; pickForm?: string; categories?: Map<string, { name: string; nameCn: string }> }) {
  const { t } = ctx;
  const name = localName(ctx, item);
  return (
    <li class="card">
      <h3>
        <a href={href(ctx, PAGE_PATHS.listing(item.slug))}>{name}</a>
      </h3>
      <p class="meta">
        <a href={href(ctx, PAGE_PATHS.category(item.category))}>{localCategory(ctx, item, categories)}</a>
        {' · '}
        <Popularity ctx={ctx} value={item.popularity} />
        {item.sponsored && (
          <>
            {' · '}
            <span class="badge sponsored">{t.sponsoredBadge}</span>
          </>
        )}
        {item.status !== 'online' && (
          <>
            {' · '}
            <span class="badge warn">{t.listingStatuses[item.status]}</span>
          </>
        )}
      </p>
      <p>{localDescription(ctx, item)}</p>
      <FactLabels ctx={ctx} item={item} />
      {pickForm && (
        <p class="pick">
          <input type="checkbox" id={`pick-${item.slug}`} name="ids" value={item.slug} form={pickForm} />
          <label for={`pick-${item.slug}`}>{t.addToCompare(name)}</label>
        </p>
      )}
    </li>
  );
}

/**
 * A card's facts as short labels instead of prose: price from, free tier, authentication, context, a
 * lifecycle other than active, and what the prober found (where it has looked).
 */
function FactLabels({ ctx, item }: { ctx: PageContext; item: ToolSummary }) {
  const { t } = ctx;
  const price = item.priceFrom;
  const lifecycle = item.lifecycle?.status;
  return (
    <ul class="labels">
      {price && (
        <li>
          {t.cardPriceFrom(amountText(price, price.currency), t.rateUnits[price.unit] ?? price.unit)}
        </li>
      )}
      {item.freeTier && <li class="good">{t.freeTierBadge}</li>}
      {item.authType !== null && <li>{t.authTypes[item.authType] ?? item.authType}</li>}
      {item.contextTokens !== null && <li>{t.cardContext(t.tokensInWords(item.contextTokens))}</li>}
      {lifecycle && lifecycle !== 'active' && <li class="warn">{t.lifecycleStatuses[lifecycle] ?? lifecycle}</li>}
      {item.liveness && <li class={item.liveness.state === 'ok' ? 'good' : 'warn'}>{t.liveStates[item.liveness.state]}</li>}
    </ul>
  );
}

/** The form the cards' boxes belong to: the chosen listings go to the comparison page. */
export function PickForm({ ctx, id }: { ctx: PageContext; id: string }) {
  return (
    <form id={id} class="pickform" action={href(ctx, comparePath([]))} method="get">
      <p class="small">{ctx.t.pickHint}</p>
      <button type="submit">{ctx.t.compareSelected}</button>
    </form>
  );
}

/** Links between pages of a list: the first page, and the next one when there is one. */
export function Pager({ ctx, first, next }: { ctx: PageContext; first: string | null; next: string | null }) {
  if (!first && !next) return null;
  return (
    <nav class="pager" aria-label={ctx.t.pagination}>
      {first && (
        <a href={href(ctx, first)} rel="first">
          {ctx.t.firstPage}
        </a>
      )}
      {next && (
        <a href={href(ctx, next)} rel="next">
          {ctx.t.nextPage}
        </a>
      )}
    </nav>
  );
}

type Source = z.infer<typeof sourceSchema>;

/**
 * Where a fact comes from: the page, the day it was checked, the day it grows stale, the words quoted.
 * With `required`, a fact every listing sources that has none yet says so; `brief` (where many stand side
 * by side, as on the comparison) keeps the page and the day it was checked only.
 */
export function SourceNote({ ctx, source, required = false, brief = false }: { ctx: PageContext; source: Source | null; required?: boolean; brief?: boolean }) {
  const { t } = ctx;
  if (!source) return required ? <span class="source">{t.unconfirmed}</span> : null;
  if (brief) {
    return (
      <span class="source">
        <ExternalLink url={source.url}>{t.source}</ExternalLink> ({t.checked} <time datetime={source.checked}>{source.checked}</time>)
      </span>
    );
  }
  return (
    <span class="source">
      <ExternalLink url={source.url}>{t.source}</ExternalLink>{' '}
      ({t.checked} <time datetime={source.checked}>{source.checked}</time>, {t.staleAfter} <time datetime={source.staleAfter}>{source.staleAfter}</time>)
      {source.quote && (
        <>
          {': '}
          <q {...english(ctx)}>{source.quote}</q>
        </>
      )}
    </span>
  );
}

/** Code with its label and language, and a copy button that the script shows (it does nothing without it). */
export function CodeBlock({ ctx, id, label, language, code }: { ctx: PageContext; id: string; label: string; language: string; code: string }) {
  return (
    <figure class="code">
      <figcaption>
        <span {...english(ctx)}>{label}</span> <span class="lang-tag">{language}</span>
        <button type="button" class="copy" data-copy={id} data-copied={ctx.t.copied} aria-label={ctx.t.copyCode(label)} hidden>
          {ctx.t.copy}
        </button>
      </figcaption>
      <pre id={id}>
        <code class={`language-${language}`}>{code}</code>
      </pre>
    </figure>
  );
}

/** A wide table in a box of its own that scrolls sideways on a narrow screen (the page itself never does). */
export function Wide({ ctx, label, children }: { ctx: PageContext; label: string; children: ComponentChildren }) {
  return (
    <section class="wide" aria-label={ctx.t.tableOf(label)} tabindex={0}>
      {children}
    </section>
  );
}

/**
 * A text with its markdown code spans (`like this`) as code, and nothing else taken from it: the rest stays
 * text, so whatever a field holds, it cannot make markup. An unpaired backtick stays as it is.
 */
export function Inline({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  if (parts.length === 1) return <>{text}</>;
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}

/** A list of short texts, or "none listed". */
export function TextList({ ctx, items, code = false }: { ctx: PageContext; items: string[]; code?: boolean }) {
  if (items.length === 0) return <p class="muted">{ctx.t.noneListed}</p>;
  return (
    <ul {...english(ctx)}>
      {items.map((item) => (
        <li>{code ? <code>{item}</code> : <Inline text={item} />}</li>
      ))}
    </ul>
  );
}
