import { bigrams, hanWords, indexTerms, latinTerms, stem } from './tokenizer';
import { buildClauses, allowedEdits } from './search-query';
import { deletionVariants } from './search-index.writer';

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
    const clauses = buildClauses('vector datab');
    expect(clauses.map((c) => c.label)).toEqual(['vector', 'datab']);
    expect(clauses[0].alts[0].terms[0].p).toBe(0);
    expect(clauses[1].alts[0].terms[0].p).toBe(1);
    expect(buildClauses('vector ')[0].alts[0].terms[0].p).toBe(0);
  });

  it('tolerates one edit from 4 characters and two from 8', () => {
    expect(allowedEdits('gpt')).toBe(0);
    expect(allowedEdits('deepsek')).toBe(1);
    expect(allowedEdits('antropic')).toBe(2);
    expect(allowedEdits('语音识别')).toBe(0);
  });

  it('makes one clause per Chinese word of the segmenter', () => {
    expect(buildClauses('向量数据库').map((c) => c.label)).toEqual(['向量', '数据', '库']);
    expect(buildClauses('OpenAI 语音').map((c) => c.label)).toEqual(['openai', '语音']);
  });

  it('deletion variants reach one edit from 3 characters and two from 6', () => {
    expect(deletionVariants('ab')).toEqual([]);
    expect(deletionVariants('abc').sort()).toEqual(['ab', 'ac', 'bc']);
    expect(deletionVariants('anthropic')).toEqual(expect.arrayContaining(['antropic', 'anthropc', 'atropic']));
  });
});
