/**
 * What the read benchmarks ask, for this service and for the peer (json-server) in its own URL style.
 * The search mix is what agents and developers type: English and Chinese, topics and names, with and
 * without a category.
 */
export const SEARCH_MIX: Array<{ q: string; category?: string }> = [
  { q: 'text to speech' },
  { q: 'vector database' },
  { q: '向量数据库' },
  { q: 'claude' },
  { q: 'web scraping' },
  { q: 'payments' },
  { q: '支付' },
  { q: 'serverless gpu' },
  { q: 'ocr' },
  { q: 'embeddings' },
  { q: '语音识别' },
  { q: 'image generation' },
  { q: 'llm observability' },
  { q: 'stripe' },
  { q: 'email' },
  { q: 'speech', category: 'audio' },
  { q: 'api', category: 'payment' },
  { q: 'gpu', category: 'cloud-gpu' },
  { q: 'search', category: 'search' },
  { q: '大模型', category: 'llm' },
];

const DETAIL_SLUGS = [
  'openai', 'anthropic', 'stripe', 'google-gemini', 'elevenlabs', 'pinecone', 'github', 'vercel', 'deepseek', 'firecrawl',
  'supabase', 'twilio', 'modal', 'assemblyai', 'qdrant', 'cursor', 'posthog', 'zapier', 'mistral', 'cloudflare',
];
const COMPARE_IDS = [
  ['openai', 'anthropic', 'google-gemini'],
  ['pinecone', 'qdrant', 'weaviate'],
  ['stripe', 'paddle', 'lemonsqueezy'],
  ['elevenlabs', 'cartesia', 'deepgram'],
  ['modal', 'runpod', 'baseten'],
  ['tavily', 'exa', 'serper'],
  ['vercel', 'netlify', 'render'],
  ['resend', 'postmark', 'sendgrid'],
  ['deepseek', 'qwen', 'moonshot'],
  ['posthog', 'mixpanel', 'amplitude'],
];

export interface Scenario {
  name: 'search' | 'detail' | 'compare' | 'categories';
  ours: string[];
  peer: string[];
}

export function searchPaths(): string[] {
  return SEARCH_MIX.map(({ q, category }) => `/api/v1/tools/search?${new URLSearchParams({ q, ...(category ? { category } : {}), limit: '20' })}`);
}

export function scenarios(): Scenario[] {
  return [
    {
      name: 'search',
      ours: searchPaths(),
      peer: SEARCH_MIX.map(({ q, category }) => `/listings?${new URLSearchParams({ q, ...(category ? { category } : {}), _limit: '20' })}`),
    },
    { name: 'detail', ours: DETAIL_SLUGS.map((s) => `/api/v1/tools/${s}`), peer: DETAIL_SLUGS.map((s) => `/listings/${s}`) },
    {
      name: 'compare',
      ours: COMPARE_IDS.map((ids) => `/api/v1/tools/compare?ids=${ids.join(',')}`),
      peer: COMPARE_IDS.map((ids) => `/listings?${ids.map((id) => `id=${id}`).join('&')}`),
    },
    { name: 'categories', ours: ['/api/v1/tools/categories'], peer: ['/categories'] },
  ];
}
