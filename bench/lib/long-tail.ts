import { SEARCH_MIX } from './scenarios';

/**
 * Agents' queries are a long tail: most are asked once. This mix has 240 distinct queries (topics, product
 * names, typos, Chinese and mixed, tasks, names typed apart or with punctuation), so a benchmark that asks
 * each once per pass measures the search engine, not the response cache.
 */
const TOPICS = [
  'text to speech', 'speech to text', 'vector database', 'web scraping', 'serverless gpu', 'image generation', 'video generation',
  'embeddings', 'rerank', 'transactional email', 'sms', 'payments', 'subscription billing', 'web search', 'llm observability',
  'error tracking', 'ocr', 'pdf parsing', 'background removal', 'headless browser', 'code sandbox', 'serverless postgres',
  'feature flags', 'product analytics', 'data warehouse', 'geocoding', 'workflow automation', 'deploy frontend', 'rent gpu',
  'model router', 'fast inference', 'object detection', 'experiment tracking', 'speaker diarization', 'voice cloning',
  'coding agent', 'fine tuning', 'translation', 'authentication', 'key value store', 'cron jobs', 'webhooks', 'maps api',
  'real-time transcription', 'music generation', 'agent memory', 'document parsing', 'semantic search', 'rag pipeline', 'chatbot',
];
const NAMES = [
  'openai', 'anthropic', 'claude', 'gemini', 'deepseek', 'mistral', 'cohere', 'groq', 'together ai', 'fireworks', 'perplexity', 'grok',
  'kimi', 'qwen', 'glm', 'stripe', 'paypal', 'alipay', 'twilio', 'resend', 'sendgrid', 'postmark', 'pinecone', 'qdrant', 'weaviate',
  'chroma', 'milvus', 'elevenlabs', 'deepgram', 'assemblyai', 'cartesia', 'firecrawl', 'apify', 'tavily', 'exa', 'serper', 'jina',
  'vercel', 'netlify', 'supabase', 'neon', 'upstash', 'posthog', 'sentry', 'datadog', 'modal', 'runpod', 'replicate', 'huggingface',
  'chatgpt', 'whisper', 'dall-e', 'gpt-4o', 'stable diffusion', 'flux', 'copilot', 'cursor', 'devin', 'zapier', 'n8n',
];
const TYPOS = [
  'antropic', 'deepsek', 'elevnlabs', 'stirpe', 'pinecon', 'supabse', 'firecrwal', 'mistrall', 'hugginface', 'assemblyia',
  'perplexty', 'transcripton', 'embedings', 'vectr database', 'scrapping', 'diarisation', 'obervability', 'authentification',
  'websockets api', 'seach engine',
];
const CHINESE = [
  '向量数据库', '支付', '语音识别', '语音合成', '大模型', '网页抓取', '文生图', '视频生成', '文字识别', '邮件', '短信', '地图',
  '通义千问', '月之暗面', '智谱', '深度求索', '数据仓库', '错误监控', '抠图', '自动化工作流', '搜索引擎', '无服务器 GPU', '重排序',
  '用户认证', '声音克隆', '免费 大模型', '便宜的大模型', '机器翻译', '代码助手', '浏览器自动化',
];
const MIXED = [
  'OpenAI 语音', 'Stripe 支付', 'Claude 接口', 'GPU 云', 'AI 编辑器', 'deepseek 大模型', 'Kimi 长上下文', 'RAG 文档解析',
  'open ai', 'eleven labs', 'deep seek', 'hugging face', 'black forest', 'free llm', 'cheap reasoning model', 'openai compatible inference',
  'stri', 'qdr', 'tts', 'stt',
];
const TASKS = [
  'transcribe a podcast', 'generate images from text', 'send transactional emails', 'turn a web page into markdown',
  'run untrusted code in a sandbox', 'accept card payments online', 'search the web from an agent', 'store embeddings for rag',
  'clone a voice from a sample', 'extract tables from pdf', 'track product events', 'schedule background jobs',
  'host an open source model', 'fine tune a small model', 'monitor llm costs', 'detect objects in images',
  'translate documents', 'geocode addresses', 'send push notifications', 'verify phone numbers',
];
/** The topics again within a category, as agents narrow them. */
const IN_CATEGORY = ['llm chat', 'audio api', 'image api', 'gpu', 'payments api', 'search api', 'vector', 'automation', 'analytics', 'hosting'];

export const LONG_TAIL_QUERIES: string[] = [
  ...new Set([...TOPICS, ...NAMES, ...TYPOS, ...CHINESE, ...MIXED, ...TASKS, ...IN_CATEGORY, ...SEARCH_MIX.map((m) => m.q)]),
];

/** The long-tail mix as search paths (limit 20), each query once. */
export function longTailPaths(): string[] {
  return LONG_TAIL_QUERIES.map((q) => `/api/v1/tools/search?${new URLSearchParams({ q, limit: '20' })}`);
}
