import { CategoryCatalog } from '../src/catalog/category-catalog';
import { renderSummary } from '../src/rendering/listing-views';
import { SearchIndex } from '../src/search/search-index';
import { buildSearchRequest } from '../src/search/search-query';
import { generateCatalog, loadFixtureListings } from '../test/support/synthetic-catalog';
const size = Number(process.argv[2] ?? 10000);
const categories = CategoryCatalog.fromDirectory('fixtures');
const fixtures = loadFixtureListings();
const listings = [...fixtures, ...generateCatalog(size, 42, fixtures)];
const index = new SearchIndex();
for (let i = 0; i < listings.length; i += 1000) index.apply(new Map(listings.slice(i, i + 1000).map((l) => [l.slug, { listing: l, category: categories.get(l.category), summary: renderSummary(l, categories.get(l.category)) }])));
const zh = '通过同一套接口调用大模型覆盖文本生成推理和图像理解并提供向量嵌入语音合成语音识别与图像生成'.repeat(5).slice(0, 200);
const en = 'api cloud data model speech vision search vector payment email sms text image video audio gpu inference embedding rerank agent code'.repeat(3).slice(0, 200);
const typos = 'antropic deepsek elevnlabs stirpe pinecon supabse firecrwal mistrall hugginface assemblyia perplexty transcripton embedings scrapping obervability'.slice(0, 200);
const qs: Array<[string, string]> = [['zh200', zh], ['en200', en], ['typos', typos], ['a-prefix', 'a'], ['ap', 'ap'], ['s', 's'], ['co', 'co']];
for (const [name, q] of qs) {
  index.search(buildSearchRequest(q, 20, index.lexicon), null);
  const t = process.hrtime.bigint();
  const r = index.search(buildSearchRequest(q, 20, index.lexicon), null);
  console.log(name, (Number(process.hrtime.bigint() - t) / 1e6).toFixed(1), 'ms', r.total, 'clauses', buildSearchRequest(q, 20, index.lexicon).clauses.length);
}
