import { bigrams, hanWords, indexTerms, joinedTerms, latinTerms, stem } from './tokenizer';
import { buildClauses, allowedEdits, parseQuery } from './search-query';
import { termsWithinEdits } from './typo-terms';

describe('tokenizer', () => {
  it('lower-cases, drops stop words and stems plurals', () => {
    expect(latinTerms('The APIs for Embeddings and Rerankers')).toEqual(['api', 'embedding', 'reranker']);
    expect(stem('libraries')).toBe('library');
    expect(stem('access')).toBe('access');
    expect(stem('status')).toBe('status');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('videos')).toBe('video');
  });

  it('indexes Chinese as words, bigrams and single characters', () => {
    const terms = indexTerms('向量数据库');
    expect(terms).toEqual(expect.arrayContaining(['向量', '数据', '据库', '量数', '向', '库']));
    expect(bigrams('语音合成')).toEqual(['语音', '音合', '合成']);
    expect(hanWords('语音识别接口').join('|')).toContain('语音');
  });

  it('handles mixed text', () => {
    expect(indexTerms('OpenAI 语音')).toEqual(expect.arrayContaining(['openai', '语音', '语', '音']));
  });
});

describe('query clauses', () => {
  it('makes one clause per word, the last typed word also a prefix', () => {
    const clauses = buildClauses('vector datab').clauses;
    expect(clauses.map((c) => c.label)).toEqual(['vector', 'datab']);
    expect(clauses[0].alts[0].terms[0].prefix).toBe(false);
    expect(clauses[1].alts[0].terms[0].prefix).toBe(true);
    expect(buildClauses('vector ').clauses[0].alts[0].terms[0].prefix).toBe(false);
  });

  it('tolerates one edit from 4 characters and two from 8', () => {
    expect(allowedEdits('gpt')).toBe(0);
    expect(allowedEdits('deepsek')).toBe(1);
    expect(allowedEdits('antropic')).toBe(2);
    expect(allowedEdits('语音识别')).toBe(0);
  });

  it('makes one clause per Chinese word of the segmenter, a long word also matching by bigrams', () => {
    expect(buildClauses('代码生成').clauses.map((c) => c.label)).toEqual(['代码', '生成']);
    const [context] = buildClauses('大上下文').clauses.slice(1);
    expect(context.alts.map((a) => a.terms.map((t) => t.text))).toEqual([['上下文'], ['上下', '下文']]);
    expect(buildClauses('OpenAI 语音').clauses.map((c) => c.label)).toEqual(['openai', '语音']);
  });

  it('turns a synonym phrase into one clause with every phrase of its group', () => {
    const [clause] = buildClauses('text to speech').clauses;
    expect(clause.synonyms).toBe(true);
    const phrases = clause.alts.map((a) => a.phrase);
    expect(phrases[0]).toBe('text to speech');
    expect(phrases).toEqual(expect.arrayContaining(['tts', 'speech synthesis', '语音合成']));
    expect(clause.alts[0].terms.map((t) => t.text)).toEqual(['text', 'speech']);
    expect(clause.alts.find((a) => a.phrase === '语音合成')!.terms.map((t) => t.text)).toEqual(['语音', '音合', '合成']);
    expect(buildClauses('向量数据库').clauses).toHaveLength(1);
    expect(buildClauses('best vector database').clauses[1].label).toBe('vector database');
  });

  it('finds the index terms within one or two edits of a word (insert, delete, substitute, swap)', () => {
    const terms = ['anthropic', 'antropic', 'api', 'deepgram', 'deepseek', 'elevenlabs', 'gpt4o', 'open', 'openai', 'opinion', '语音'].sort();
    const near = (word: string, edits: number) => termsWithinEdits(terms, word, edits).map((t) => `${t.term}:${t.edits}`).sort();
    expect(near('antropic', 1)).toEqual(['anthropic:1']);
    expect(near('anhtropic', 1)).toEqual(['anthropic:1', 'antropic:1']); // a swap of neighbours is one edit
    expect(near('deepsek', 1)).toEqual(['deepseek:1']);
    expect(near('elevnlabs', 2)).toEqual(['elevenlabs:1']);
    expect(near('openia', 1)).toEqual(['openai:1']);
    expect(near('opne', 1)).toEqual(['open:1']);
    // The word itself is not a correction; terms with digits, Chinese and terms under 3 characters never are.
    expect(near('openai', 2)).toEqual(['open:2']);
    expect(near('gpt4a', 1)).toEqual([]);
    expect(near('apx', 1)).toEqual(['api:1']);
    expect(near('ap', 1)).toEqual(['api:1']);
  });

  it('finds the same terms as a scan of every term', () => {
    const words = 'the quick brown fox jumps over lazy dogs while seven wizards quietly hex bright jovial zebras'.split(' ');
    const terms = [...new Set([...words, ...words.map((w) => w.slice(1)), ...words.map((w) => `${w}s`), ...words.map((w) => w.replace(/[aeiou]/, 'y'))])].sort();
    const osa = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
      return d[a.length][b.length];
    };
    for (const word of ['quick', 'qiuck', 'brwon', 'jumsp', 'wizard', 'zebra', 'lazzy', 'bright', 'xx']) {
      for (const edits of [1, 2]) {
        const expected = terms.filter((t) => t.length >= 3 && /^[a-z]+$/.test(t) && osa(word, t) > 0 && osa(word, t) <= edits).sort();
        expect(termsWithinEdits(terms, word, edits).map((t) => t.term).sort()).toEqual(expected);
      }
    }
  });
});

describe('tokenizer on ASCII text', () => {
  it('gives the terms of the Unicode path (which a non-ASCII separator forces)', () => {
    // A no-break space is not ASCII and NFKC makes it a plain space: it separates, adds no term.
    const samples = [
      'The APIs for Embeddings and Rerankers, v1.2 (GPT-4o) & text-to-speech!',
      'Status: analysis of classes; flies, boxes, passes, 429s, OAuth2.0/JWT',
      '\tMixed_CASE  words\nwith\u0001control\u007fcharacters and_underscores',
      '',
    ];
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 300; i++) {
      samples.push(Array.from({ length: Math.floor(random() * 60) }, () => String.fromCharCode(Math.floor(random() * 128))).join(''));
    }
    for (const text of samples) {
      expect(indexTerms(text)).toEqual(indexTerms(`${text}\u00a0`));
      expect(latinTerms(text)).toEqual(latinTerms(`\u00a0${text}`));
    }
  });
});

describe('joined forms of punctuated names', () => {
  it('are the runs of pieces joined by - . _ or a middle dot, with no space, in ASCII and Unicode text alike', () => {
    const samples = [
      'Use gpt-4o or text-embedding-3-small, e.g. DALL-E; see api.openai.com/v1 and max_tokens.',
      'Hugging-Face models; v1.2 ships 3.5 and a-b-; -x; y. z',
      'Mistral-Large 2.1 — le-chat, semi-colon; trailing-',
    ];
    for (const text of samples) {
      // A non-ASCII character elsewhere sends the text down the Unicode path; the runs must not change.
      expect(joinedTerms(text)).toEqual(joinedTerms(`${text} é`));
    }
    expect(joinedTerms(samples[0])).toEqual(['gpt4o', 'textembedding3small', 'eg', 'dalle', 'apiopenaicom', 'maxtokens']);
    expect(joinedTerms('DALL·E 3 and Qwen3-Max 通义-千问')).toEqual(['dalle', 'qwen3max']);
    expect(joinedTerms('a '.repeat(3) + 'x'.repeat(20) + '-' + 'y'.repeat(20))).toEqual([]); // longer than a name
    expect(joinedTerms('3.5-7')).toEqual([]); // numbers only
  });
});

describe('orders and kinds of model asked for in words', () => {
  it('reads price and context words as orders, once, and leaves them out of the words searched', () => {
    const cheap = buildClauses('cheapest embedding model');
    expect(cheap.facets).toEqual([{ input: 'cheapest', sort: 'price' }]);
    expect(cheap.clauses.map((c) => c.label)).toEqual(['embeddings', 'model']);
    expect(buildClauses('最便宜的大模型').facets).toEqual([{ input: '最便宜', sort: 'price' }]);
    expect(buildClauses('long context llm').facets).toEqual([{ input: 'long context', sort: 'context' }]);
    // The first order asked for counts; a filter word beside it is a filter.
    expect(buildClauses('free cheap long context').facets).toEqual([{ input: 'free', filter: 'freeTier' }, { input: 'cheap', sort: 'price' }]);
  });

  it('finds the kind of model a query names, whose rates a price order compares', () => {
    expect(parseQuery('cheapest embedding model').modelKind).toBe('embedding');
    expect(parseQuery('便宜的语音合成').modelKind).toBe('speech');
    expect(parseQuery('cheap reasoning model').modelKind).toBe('reasoning');
    expect(parseQuery('cheapest llm').modelKind).toBeNull();
  });
});
