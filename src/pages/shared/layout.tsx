import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { HTML_LANG, Lang, Messages, MESSAGES, OG_LOCALE } from '../messages';
import { inLang, PAGE_PATHS } from '../page-paths';
import { breadcrumbList, JsonLd } from './json-ld';

/** What every page knows: its language and messages, its path (without the language prefix) and the site's address. */
export interface PageContext {
  lang: Lang;
  t: Messages;
  /** The page's path and query, without the language prefix: `/apis/openai`. */
  path: string;
  /** Absolute links start with it (PUBLIC_BASE_URL, or the scheme and host the request came to). */
  base: string;
}

export function pageContext(lang: Lang, path: string, base: string): PageContext {
  return { lang, t: MESSAGES[lang], path, base };
}

/** A path in the page's language. */
export const href = (ctx: PageContext, path: string) => inLang(ctx.lang, path);
/** An absolute URL of a path in a language. */
export const absolute = (ctx: PageContext, path: string, lang: Lang = ctx.lang) => `${ctx.base}${inLang(lang, path)}`;

export interface Crumb {
  name: string;
  /** Without the language prefix; the last crumb (this page) has none. */
  path?: string;
}

export interface LayoutProps {
  ctx: PageContext;
  title: string;
  description: string;
  /** The trail from home to this page (home itself has none). */
  crumbs?: Crumb[];
  /** schema.org data about the page (besides its breadcrumb list). */
  jsonLd?: object[];
  /** Open Graph type. */
  ogType?: 'website' | 'article';
  /** An error page: not to be indexed, so no canonical URL, alternates or Open Graph URL. */
  noindex?: boolean;
  children: ComponentChildren;
}

const OTHER: Record<Lang, Lang> = { en: 'zh', zh: 'en' };

/** The head: title and description, canonical URL and language alternates, Open Graph, assets, JSON-LD. */
function Head({ ctx, title, description, data, ogType, noindex }: { ctx: PageContext; title: string; description: string; data: object[]; ogType: string; noindex: boolean }) {
  const { t, lang, path } = ctx;
  const canonical = absolute(ctx, path);
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title}</title>
      <meta name="description" content={description} />
      {noindex ? (
        <meta name="robots" content="noindex" />
      ) : (
        <>
          <link rel="canonical" href={canonical} />
          <link rel="alternate" hreflang={HTML_LANG.en} href={absolute(ctx, path, 'en')} />
          <link rel="alternate" hreflang={HTML_LANG.zh} href={absolute(ctx, path, 'zh')} />
          <link rel="alternate" hreflang="x-default" href={absolute(ctx, path, 'en')} />
          <meta property="og:url" content={canonical} />
        </>
      )}
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content={ogType} />
      <meta property="og:site_name" content={t.siteName} />
      <meta property="og:locale" content={OG_LOCALE[lang]} />
      <meta property="og:locale:alternate" content={OG_LOCALE[OTHER[lang]]} />
      <link rel="stylesheet" href="/assets/site.css" />
      <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
      <link rel="search" type="application/opensearchdescription+xml" href={inLang(lang, '/opensearch.xml')} title={t.siteName} />
      <link rel="alternate" type="application/atom+xml" href="/api/v1/changes.atom" title={t.footerAtom} />
      <script src="/assets/site.js" defer></script>
      {data.map((item) => (
        <JsonLd data={item} />
      ))}
    </head>
  );
}

/** The site's header: its name, the main sections, and the same page in the other language. */
function SiteHeader({ ctx }: { ctx: PageContext }) {
  const { t, lang, path } = ctx;
  const other = OTHER[lang];
  const sections: Array<[string, string]> = [
    [PAGE_PATHS.search, t.navSearch],
    [PAGE_PATHS.models, t.navModels],
    [PAGE_PATHS.compare, t.navCompare],
    [PAGE_PATHS.errors, t.navErrors],
    [PAGE_PATHS.changes, t.navChanges],
  ];
  return (
    <header class="site">
      <div class="wrap bar">
        <a class="brand" href={href(ctx, PAGE_PATHS.home)}>
          {t.siteName}
        </a>
        <nav aria-label={t.mainNav}>
          <ul>
            {sections.map(([section, name]) => (
              <li>
                <a href={href(ctx, section)}>{name}</a>
              </li>
            ))}
          </ul>
        </nav>
        <a class="lang" href={inLang(other, path)} hreflang={HTML_LANG[other]} lang={HTML_LANG[other]} aria-label={`${MESSAGES[other].languageSwitch}: ${t.otherLanguage}`}>
          {t.otherLanguage}
        </a>
      </div>
    </header>
  );
}

function Breadcrumbs({ ctx, trail }: { ctx: PageContext; trail: Crumb[] }) {
  return (
    <nav class="wrap crumbs" aria-label={ctx.t.breadcrumb}>
      <ol>
        {trail.map((crumb, i) =>
          i < trail.length - 1 ? (
            <li>
              <a href={href(ctx, crumb.path ?? ctx.path)}>{crumb.name}</a>
            </li>
          ) : (
            <li aria-current="page">{crumb.name}</li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** The footer: what the directory is, and its ways in for software. */
function SiteFooter({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  const links: Array<[string, string]> = [
    ['/api/v1/tools', t.footerApi],
    ['/api/v1/openapi.json', t.footerOpenApi],
    ['/llms.txt', t.footerLlms],
    ['/.well-known/mcp', t.footerMcp],
    ['/api/v1/changes.atom', t.footerAtom],
  ];
  return (
    <footer class="site">
      <div class="wrap">
        <p>{t.footerNote}</p>
        <ul>
          {links.map(([url, name]) => (
            <li>
              <a href={url}>{name}</a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}

/** The page around the content: head (canonical, alternates, Open Graph, JSON-LD), header, breadcrumb, footer. */
export function Layout({ ctx, title, description, crumbs, jsonLd = [], ogType = 'website', noindex = false, children }: LayoutProps) {
  const { t, lang, path } = ctx;
  const trail = crumbs ? [{ name: t.home, path: PAGE_PATHS.home }, ...crumbs] : null;
  const data = trail ? [...jsonLd, breadcrumbList(trail.map((c) => ({ name: c.name, url: absolute(ctx, c.path ?? path) })))] : jsonLd;
  return (
    <html lang={HTML_LANG[lang]}>
      <Head ctx={ctx} title={title} description={description} data={data} ogType={ogType} noindex={noindex} />
      <body>
        <a class="skip" href="#main">
          {t.skipToContent}
        </a>
        <SiteHeader ctx={ctx} />
        {trail && <Breadcrumbs ctx={ctx} trail={trail} />}
        <main id="main" class="wrap">
          {children}
        </main>
        <SiteFooter ctx={ctx} />
      </body>
    </html>
  );
}

/** A whole document: the doctype and the page, every text and attribute escaped by the renderer. */
export function renderDocument(page: preact.VNode): string {
  return `<!DOCTYPE html>${render(page)}`;
}
