import { htmlMarkup, literalSecrets, lookalikeSkeleton, mixedScriptWord, textProblems, unsafeLink, urlCredential } from './text-rules';

describe('htmlMarkup', () => {
  it.each([
    '<script>alert(1)</script>',
    'Fast <b>and</b> cheap',
    'See the docs.<br/>More below',
    'Line<BR>break',
    '<img src=x onerror=alert(1)>',
    '<a href="https://example.com">docs</a>',
    'ends with a closing tag</p>',
    '<x-widget data-id="1">',
    'a comment <!-- here -->',
    '<iframe\nsrc="https://evil.example">',
    '<svg/onload=alert(1)>',
  ])('finds markup in %j', (text) => {
    expect(htmlMarkup(text)).not.toBeNull();
  });

  it.each([
    'a < b and c > d',
    'latency <500 ms at p50, >2 s at p99',
    'API key sent as "Authorization: Api-Key <key>"',
    'Bot token in the URL path (https://api.telegram.org/bot<token>/METHOD)',
    'regional hosts (<region>.tts.speech.microsoft.com)',
    'accounts/<account>/deployments/<id> and ms://<file-id>',
    'Helicone-Property-<Name> headers',
    'reasoning comes between <think> and </think> tags',
    'the `<b>` tag and `<script src="x">` in backticks are shown as written',
    'x<y, 2<3, a<=b, i<<2, <-> and <=>',
    '向量检索 <1 秒',
  ])('finds none in %j', (text) => {
    expect(htmlMarkup(text)).toBeNull();
  });

  it('checks every text field except the code ones, naming the field', () => {
    const listing = {
      description: 'Fast <b>and</b> cheap',
      features: ['fine', 'click <a href="x">here</a>'],
      codeExamples: [{ label: 'Send <b>', code: 'curl -d "<p>hi</p>"' }],
    };
    const problems = textProblems(listing, (field) => /^codeExamples\.\d+\.code$/.test(field));
    expect(problems.map((p) => p.field)).toEqual(['description', 'features.1', 'codeExamples.0.label']);
    expect(problems[0].reason).toBe("contains HTML ('<b>'): text fields are plain text (put code in backticks or in codeExamples)");
  });
});

const isCode = (field: string) => /^codeExamples\.\d+\.code$/.test(field);
const reasons = (text: string, field = 'description') => textProblems({ [field]: text }, isCode).map((p) => p.reason);

describe('characters that hide or reorder text are refused in every field, code included', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a terminal escape', 'red \u001b[31mtext'],
    ['DEL', 'x\u007f'],
    ['a right-to-left override', 'price \u202e01$'],
    ['a left-to-right isolate', 'a\u2066b'],
    ['a zero-width space', 'Open\u200bAI'],
    ['a zero-width joiner', 'a\u200db'],
    ['a byte-order mark', '\ufeffname'],
    ['a soft hyphen', 'in\u00advisible'],
  ])('%s', (_, text) => {
    expect(reasons(text).join()).toMatch(/contains (a control|a bidirectional control|an invisible) character \(U\+[0-9A-F]{4}\)/);
    expect(reasons(text, 'codeExamples.0.code').join()).toMatch(/character/);
  });

  it('leaves tabs, line breaks, Chinese and emoji alone', () => {
    expect(reasons('line one\n\tline two 中文 ✓ 😀')).toEqual([]);
  });
});

describe('HTML character references', () => {
  it.each(['&lt;script&gt;alert(1)&lt;/script&gt;', 'AT&amp;T', '&#60;b&#62;', '&#x3c;'])('refuses %j in text', (text) => {
    expect(reasons(text).join()).toMatch(/HTML character reference/);
  });
  it('allows an ampersand that is not a reference, and references in code', () => {
    expect(reasons('AT&T and R&D; Q&A')).toEqual([]);
    expect(reasons('echo "&lt;"', 'codeExamples.0.code')).toEqual([]);
  });
});

describe('links in text', () => {
  it.each([
    ['[docs](javascript:alert(1))', 'javascript:alert(1'],
    ['see [here](http://example.com)', 'http://example.com'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', 'data:text/html;base64,PHNjcmlwdD4='],
    ['click javascript:alert(1) now', 'javascript:alert(1)'],
    ['go to http://insecure.example.com/a', 'http://insecure.example.com/a'],
    ['ftp://files.example.com', 'ftp://files.example.com'],
    ['file:///etc/passwd', 'file:///etc/passwd'],
    ['img data:image/svg+xml;base64,AAAA', 'data:image/svg+xml;base64,AAAA'],
  ])('refuses %j', (text, link) => {
    expect(unsafeLink(text)).toBe(link);
  });
  it.each(['[docs](https://example.com/a)', 'https://api.example.com/v1', 'SDKs for Python and JavaScript: pip and npm', 'metadata: a mapping', 'stream over wss://api.example.com/realtime', 'files in s3://bucket/key'])(
    'allows %j',
    (text) => expect(unsafeLink(text)).toBeNull(),
  );
});

describe('secrets', () => {
  it.each([
    ['an OpenAI project key', 'export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345'],
    ['a Stripe live key', 'use sk_live_51HabcdefghijKLMNOP'],
    ['a GitHub token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['an AWS secret', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['a bearer token', 'Authorization: Bearer abcdef0123456789abcdef0123456789'],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----'],
  ])('finds %s', (_, text) => {
    expect(literalSecrets(text).length).toBeGreaterThan(0);
  });
  it.each(['Authorization: Bearer $OPENAI_API_KEY', 'sent as a Bearer token', 'api_key=${API_KEY}', 'token = os.environ["TOKEN"]'])('finds none in %j', (text) => {
    expect(literalSecrets(text)).toEqual([]);
  });
});

describe('names that pass for others', () => {
  it('finds a word mixing Latin and Cyrillic letters', () => {
    expect(mixedScriptWord('\u041epen\u0410I')).toBe("'\u041epen\u0410I' mixes Latin and Cyrillic letters");
    expect(mixedScriptWord('OpenAI 开放')).toBeNull();
    expect(mixedScriptWord('Яндекс')).toBeNull();
  });
  it('reads lookalike letters as the Latin ones they imitate', () => {
    expect(lookalikeSkeleton('\u041e\u0440\u0435\u043f\u0410\u0406')).toBe('openai');
  });
});

describe('credentials in URLs', () => {
  it.each([
    ['https://user:pass@api.example.com/v1', 'carries a user name or password'],
    ['https://api.example.com/v1?api_key=abc123', "carries a credential in its query ('api_key')"],
    ['https://api.example.com/v1?access_token=xyz', "carries a credential in its query ('access_token')"],
  ])('%s', (url, reason) => expect(urlCredential(url)).toBe(reason));
  it.each(['https://api.example.com/v1?key={API_KEY}', 'https://api.example.com/v1?model=x', 'https://api.example.com/bot<token>/x'])('none in %s', (url) => {
    expect(urlCredential(url)).toBeNull();
  });
});
