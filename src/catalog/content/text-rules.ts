/**
 * Rules every text of a content file obeys, whatever its field and language: what we publish is read by
 * people (pages, feed readers, terminals) and by agents that follow its links and copy its code. Plain
 * functions: they run on the reading threads of a large import too.
 */
import type { FieldProblem } from '../../contract/validation';

/**
 * The text problems of a parsed document, as `field: reason`: in every string, characters that hide or
 * reorder text and written-out secrets; outside the fields `isCode` names (code is shown as written), also
 * HTML, HTML character entities and links other than https. Call it on a document whose nesting was checked.
 */
export function textProblems(value: unknown, isCode: (field: string) => boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const visit = (item: unknown, path: string) => {
    if (typeof item === 'string') {
      const field = path || '(document)';
      const report = (reason: string) => problems.push({ field, reason });
      const hidden = hiddenCharacter(item);
      if (hidden) report(`contains ${hidden}: text must show what it says`);
      for (const secret of literalSecrets(item)) report(`${secret}; write the credential as an environment variable such as $API_KEY`);
      if (isCode(path)) return;
      const markup = htmlMarkup(item);
      if (markup) report(`contains HTML ('${markup}'): text fields are plain text (put code in backticks or in codeExamples)`);
      const entity = /&(?:[a-z][a-z0-9]{1,31}|#[0-9]{1,7}|#x[0-9a-f]{1,6});/i.exec(item);
      if (entity) report(`contains the HTML character reference '${entity[0]}': write the character itself`);
      const link = unsafeLink(item);
      if (link) report(`links to '${link}': links in text must be https:// URLs`);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) visit(child, path ? `${path}.${key}` : key);
    }
  };
  visit(value, '');
  return problems;
}

/** Names of the characters that hide, reorder or fake text: controls, bidirectional overrides, invisible ones. */
const HIDDEN: Array<[RegExp, string]> = [
  // C0 and C1 controls but tab, line feed and carriage return: NUL, terminal escapes (ESC [ ...), DEL.
  [/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u, 'a control character'],
  // Marks and overrides that change the order text is shown in (the "Trojan Source" characters).
  [/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u, 'a bidirectional control character'],
  // Characters that take no room: zero-width space and joiners, word joiner, byte-order mark, soft hyphen.
  [/[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/u, 'an invisible character'],
];

function hiddenCharacter(text: string): string | null {
  for (const [pattern, name] of HIDDEN) {
    const match = pattern.exec(text);
    if (match) return `${name} (U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  }
  return null;
}

/**
 * The first link in prose that is not https: a Markdown link to another scheme, a web or file URL that is
 * not https (http://, ftp://, file://), or a script or data URL, outside backtick spans. (Other URIs written as text,
 * wss:// or s3:// say where something is, and no reader follows them.)
 */
export function unsafeLink(given: string): string | null {
  // Code in backticks is shown as written, never as a link (`http://localhost:9001` in a usage tip).
  const text = given.replace(/`[^`]*`/g, ' ');
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]*)/g)) if (!match[1].startsWith('https://')) return match[1] || '(empty)';
  const found = /\b(?:javascript|vbscript|livescript):\S+/i.exec(text) ?? /\bdata:[a-z]+\/[a-z0-9.+-]+[;,]\S*/i.exec(text) ?? /\b(?:http|ftp|file):\/\/\S*/i.exec(text);
  return found ? found[0].slice(0, 60) : null;
}

/** Patterns of real-looking credentials that must never be published. */
const LITERAL_KEYS: Array<[RegExp, string]> = [
  [/\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/, 'an OpenAI/Anthropic-style secret key'],
  [/\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/, 'a Stripe secret key'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}/, 'a GitHub token'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bAIza[0-9A-Za-z_-]{30,}/, 'a Google API key'],
  [/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, 'a private key'],
];

/** What every secret found below has in it: a key prefix, a scheme or a credential-named field. */
const SECRET_MARKERS = /sk-|[sr]k_|gh[pousr]_|github_pat_|AKIA|ASIA|xox|AIza|PRIVATE KEY|Bearer|Token|Basic|Bot|key|secret|passw/i;

/** A credential-looking value written out: 24+ key characters, letters and digits both present. */
function looksLikeLiteralSecret(value: string): boolean {
  return /^[A-Za-z0-9_+/=.-]{24,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value) && !/^https?:/.test(value);
}

/** Values given to auth schemes or to credential-named fields, as written. */
function credentialValues(text: string): string[] {
  const values: string[] = [];
  for (const m of text.matchAll(/\b(?:Bearer|Token|Basic|Bot)\s+([^\s"'\\]+)/g)) values.push(m[1]);
  for (const m of text.matchAll(/([\w-]*(?:key|token|secret|password|passwd)[\w-]*)["']?\s*[:=]\s*["']?([^\s"',}\\]+)/gi)) {
    // Keys that are not credentials: a request's idempotency key, a publishable (client-side) key.
    if (!/idempot|publishable/i.test(m[1])) values.push(m[2]);
  }
  return values;
}

/** Secrets written out in a text (a reason each); examples must read them from the environment. */
export function literalSecrets(text: string): string[] {
  // Most texts hold none of the markers: one scan rules them out (this runs on every string of every file).
  if (!SECRET_MARKERS.test(text)) return [];
  const found = LITERAL_KEYS.filter(([pattern]) => pattern.test(text)).map(([, what]) => `contains ${what}`);
  for (const value of credentialValues(text)) {
    if (looksLikeLiteralSecret(value) && !found.some((f) => f.startsWith('contains a literal key'))) found.push(`contains a literal key ('${value.slice(0, 6)}...')`);
  }
  return found;
}

/** Why a URL we publish carries a credential (user and password, or a credential-named query value), or null. */
export function urlCredential(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username || parsed.password) return 'carries a user name or password';
  for (const [name, value] of parsed.searchParams) {
    if (/key|token|secret|password|signature|sig$|auth/i.test(name) && value !== '' && !/^[{<$[]/.test(value)) return `carries a credential in its query ('${name}')`;
  }
  return null;
}

/**
 * Scripts whose letters look like Latin ones: a word mixing two of them ("ОpenАI" with Cyrillic О and А) is
 * written to pass for another name.
 */
const LOOKALIKE_SCRIPTS: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];

/** A word of a name that mixes lookalike scripts, with the scripts it mixes, or null. */
export function mixedScriptWord(name: string): string | null {
  for (const word of name.split(/[^\p{L}\p{M}]+/u)) {
    const scripts = LOOKALIKE_SCRIPTS.filter(([, pattern]) => pattern.test(word)).map(([script]) => script);
    if (scripts.length > 1) return `'${word}' mixes ${scripts.join(' and ')} letters`;
  }
  return null;
}

/** Cyrillic and Greek letters that look like Latin ones, as those Latin letters (lowercase). */
const LOOKALIKES: Record<string, string> = {
  а: 'a', в: 'b', с: 'c', е: 'e', һ: 'h', і: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', п: 'n', о: 'o', р: 'p', ѕ: 's', т: 't', у: 'y', х: 'x',
  ԁ: 'd', ɡ: 'g', ԛ: 'q', ѡ: 'w', ӏ: 'l', α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't',
  υ: 'u', χ: 'x', ω: 'w', ϲ: 'c', ϳ: 'j',
};

/** A name as it looks: lowercase, lookalike letters read as the Latin letters they imitate. */
export function lookalikeSkeleton(name: string): string {
  return [...name.normalize('NFKC').toLowerCase()].map((c) => LOOKALIKES[c] ?? c).join('');
}

/**
 * Elements whose tags count as HTML even without attributes: the ones that run code or load content
 * (script, iframe...) and the formatting pasted from web pages (b, p, br, a...). Names editors use as
 * placeholders (`<key>`, `<token>`, `<region>`, `<name>`, `<id>`, `<code>`, `<body>`, `<title>`...) are
 * left out: without attributes such a tag does nothing, and the attribute rule below still catches it.
 */
const HTML_ELEMENTS = [
  'a', 'abbr', 'applet', 'area', 'article', 'aside', 'audio', 'b', 'base', 'basefont', 'bdi', 'bdo', 'bgsound', 'big', 'blink',
  'blockquote', 'br', 'button', 'canvas', 'caption', 'center', 'cite', 'col', 'colgroup', 'dd', 'del', 'details', 'dfn',
  'dialog', 'div', 'dl', 'dt', 'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font', 'form', 'frame', 'frameset',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'html', 'i', 'iframe', 'img', 'ins', 'kbd', 'legend', 'li', 'link', 'mark', 'marquee',
  'math', 'meta', 'nav', 'noscript', 'ol', 'optgroup', 'p', 'picture', 'plaintext', 'pre', 'q', 's', 'samp', 'script',
  'select', 'small', 'span', 'strike', 'strong', 'style', 'sub', 'summary', 'sup', 'svg', 'table', 'tbody', 'td', 'template',
  'textarea', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul', 'video', 'wbr', 'xmp',
];
const HTML_MARKUP = new RegExp(
  [
    // An opening or closing tag of an element above: `<script>`, `<b>`, `</p>`, `<br/>`, `<img src=...`.
    `</?(?:${HTML_ELEMENTS.join('|')})(?=[\\s/>]|$)`,
    // Any tag with an attribute: `<x onclick="...">`.
    `<[a-z][a-z0-9-]*\\s+[^<>]*=[^<>]*>`,
    // Comments, CDATA, doctype.
    `<!--|<!\\[CDATA\\[|<!doctype`,
  ].join('|'),
  'i',
);

/**
 * The first piece of HTML markup in a text, outside backtick spans (Markdown code, shown as written:
 * "`Authorization: Bearer <token>`"), or null. Text such as `a < b` or `<api-key>` is not markup.
 */
export function htmlMarkup(text: string): string | null {
  const prose = text.replace(/`[^`]*`/g, ' ');
  const match = HTML_MARKUP.exec(prose);
  if (!match) return null;
  const end = prose.indexOf('>', match.index);
  return prose.slice(match.index, end === -1 || end - match.index > 60 ? match.index + 30 : end + 1);
}
