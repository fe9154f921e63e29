/**
 * The relevance suite's queries: what an agent or a developer types, and the listing(s) a careful human
 * would expect at the top. `within` is how deep the expected listings must appear (default 3); where several
 * listings are equally right, `need` says how many of them must be there.
 * Kinds: en (English topic or name), zh (Chinese), typo, mixed (Chinese and English, or abbreviations),
 * name (the names people use for an API or its products), compound (words typed apart or together),
 * punctuation (names written with punctuation, typed with or without it), filter (a filter parameter, or a
 * fact asked for in words), task (what an agent wants done, in English or Chinese), model (a model's id
 * as the API takes it, or its name: the listing that serves it).
 */
export interface RelevanceCase {
  q: string;
  expect: string[];
  within?: number;
  /** How many of `expect` must be within `within` (default: all, or `within` if fewer). */
  need?: number;
  kind: 'en' | 'zh' | 'typo' | 'mixed' | 'name' | 'compound' | 'punctuation' | 'filter' | 'task' | 'model';
  category?: string;
  /** Other search parameters (filters). */
  params?: Record<string, string>;
}

export const KINDS: RelevanceCase['kind'][] = ['en', 'zh', 'typo', 'mixed', 'name', 'compound', 'punctuation', 'filter', 'task', 'model'];

export const RELEVANCE_CASES: RelevanceCase[] = [
  // English topics and names
  { kind: 'en', q: 'claude', expect: ['anthropic'], within: 1 },
  { kind: 'en', q: 'gpt', expect: ['openai'], within: 1 },
  { kind: 'en', q: 'text to speech', expect: ['elevenlabs', 'openai'] },
  { kind: 'en', q: 'web scraping', expect: ['firecrawl', 'apify'] },
  { kind: 'en', q: 'serverless gpu', expect: ['modal', 'runpod'] },
  { kind: 'en', q: 'stripe', expect: ['stripe'], within: 1 },
  { kind: 'en', q: 'vector database', expect: ['pinecone', 'qdrant', 'weaviate'], within: 5 },
  { kind: 'en', q: 'speech to text', expect: ['assemblyai', 'deepgram'] },
  { kind: 'en', q: 'embeddings', expect: ['voyage-ai', 'cohere', 'jina', 'mixedbread', 'openai'], within: 5, need: 3 },
  { kind: 'en', q: 'rerank', expect: ['cohere', 'voyage-ai', 'jina', 'mixedbread'], within: 5, need: 3 },
  { kind: 'en', q: 'transactional email', expect: ['resend', 'postmark', 'sendgrid'] },
  { kind: 'en', q: 'sms', expect: ['twilio'], within: 1 },
  { kind: 'en', q: 'payments', expect: ['stripe'] },
  { kind: 'en', q: 'subscription billing', expect: ['paddle', 'stripe', 'lemonsqueezy'], within: 5 },
  { kind: 'en', q: 'web search api for agents', expect: ['tavily', 'exa', 'brave-search', 'serper', 'youcom', 'jina'], within: 5, need: 2 },
  { kind: 'en', q: 'llm observability', expect: ['langsmith', 'langfuse', 'helicone'], within: 5 },
  { kind: 'en', q: 'error tracking', expect: ['sentry'], within: 1 },
  { kind: 'en', q: 'image generation', expect: ['stability-ai', 'black-forest-labs', 'ideogram', 'leonardo-ai', 'recraft', 'fal-ai'], within: 5, need: 3 },
  { kind: 'en', q: 'video generation', expect: ['runway', 'luma-ai'] },
  { kind: 'en', q: 'ocr', expect: ['aws-textract', 'google-document-ai', 'mistral'], within: 5 },
  { kind: 'en', q: 'pdf parsing', expect: ['llamaparse', 'unstructured'] },
  { kind: 'en', q: 'background removal', expect: ['remove-bg'], within: 1 },
  { kind: 'en', q: 'headless browser', expect: ['browserbase'], within: 1 },
  { kind: 'en', q: 'code sandbox for agents', expect: ['e2b'], within: 1 },
  { kind: 'en', q: 'serverless postgres', expect: ['neon', 'supabase'] },
  { kind: 'en', q: 'redis', expect: ['upstash'], within: 1 },
  { kind: 'en', q: 'feature flags', expect: ['posthog'] },
  { kind: 'en', q: 'product analytics', expect: ['posthog', 'mixpanel', 'amplitude'], within: 5 },
  { kind: 'en', q: 'data warehouse', expect: ['snowflake'] },
  { kind: 'en', q: 'geocoding', expect: ['google-maps', 'mapbox'] },
  { kind: 'en', q: 'workflow automation', expect: ['zapier', 'n8n', 'make'], within: 5 },
  { kind: 'en', q: 'discord bot', expect: ['discord'], within: 1 },
  { kind: 'en', q: 'github', expect: ['github'], within: 1 },
  { kind: 'en', q: 'deploy frontend', expect: ['vercel', 'netlify'] },
  { kind: 'en', q: 'rent gpu', expect: ['vast-ai', 'runpod', 'lambda-cloud'], within: 5 },
  { kind: 'en', q: 'model router', expect: ['openrouter'] },
  { kind: 'en', q: 'fast inference', expect: ['groq', 'cerebras'], within: 5 },
  { kind: 'en', q: 'object detection', expect: ['roboflow'], within: 1 },
  { kind: 'en', q: 'experiment tracking', expect: ['weights-biases'], within: 1 },
  { kind: 'en', q: 'speaker diarization', expect: ['assemblyai', 'deepgram', 'speechmatics', 'rev-ai', 'gladia', 'elevenlabs'], within: 5, need: 3 },
  { kind: 'en', q: 'voice cloning', expect: ['elevenlabs'] },
  { kind: 'en', q: 'autonomous coding agent', expect: ['devin', 'cursor'] },
  { kind: 'en', q: 'real-time transcription', expect: ['assemblyai', 'deepgram', 'speechmatics', 'gladia'], within: 5, need: 2, category: 'audio' },
  { kind: 'en', q: 'api', expect: ['stripe'], within: 3, category: 'payment' },

  // Typos
  { kind: 'typo', q: 'antropic', expect: ['anthropic'], within: 1 },
  { kind: 'typo', q: 'deepsek', expect: ['deepseek'], within: 1 },
  { kind: 'typo', q: 'elevnlabs', expect: ['elevenlabs'], within: 1 },
  { kind: 'typo', q: 'stirpe', expect: ['stripe'], within: 1 },
  { kind: 'typo', q: 'pinecon', expect: ['pinecone'], within: 1 },
  { kind: 'typo', q: 'supabse', expect: ['supabase'], within: 1 },
  { kind: 'typo', q: 'firecrwal', expect: ['firecrawl'], within: 1 },
  { kind: 'typo', q: 'mistrall', expect: ['mistral'], within: 1 },
  { kind: 'typo', q: 'hugginface', expect: ['huggingface'], within: 1 },
  { kind: 'typo', q: 'cloudfare workers', expect: ['cloudflare', 'cloudflare-ai'] },
  { kind: 'typo', q: 'assemblyia', expect: ['assemblyai'], within: 1 },
  { kind: 'typo', q: 'perplexty', expect: ['perplexity'], within: 1 },
  { kind: 'typo', q: 'transcripton', expect: ['assemblyai', 'deepgram', 'speechmatics', 'rev-ai', 'gladia'], within: 5, need: 3 },

  // Abbreviations, prefixes and mixed Chinese/English
  { kind: 'mixed', q: 'stri', expect: ['stripe'], within: 1 },
  { kind: 'mixed', q: 'qdr', expect: ['qdrant'], within: 1 },
  { kind: 'mixed', q: 'tts', expect: ['elevenlabs', 'cartesia', 'openai'], within: 5 },
  { kind: 'mixed', q: 'stt', expect: ['assemblyai', 'deepgram'], within: 5 },
  { kind: 'mixed', q: 'asr', expect: ['assemblyai', 'deepgram'], within: 5 },
  { kind: 'mixed', q: 'OpenAI 语音', expect: ['openai'], within: 1 },
  { kind: 'mixed', q: 'Stripe 支付', expect: ['stripe'], within: 1 },
  { kind: 'mixed', q: 'Claude 接口', expect: ['anthropic'], within: 1 },
  { kind: 'mixed', q: 'GPU 云', expect: ['runpod', 'modal', 'lambda-cloud', 'vast-ai'], within: 5 },
  { kind: 'mixed', q: 'AI 编辑器', expect: ['cursor'] },
  { kind: 'mixed', q: 'deepseek 大模型', expect: ['deepseek'], within: 1 },
  { kind: 'mixed', q: 'Kimi 长上下文', expect: ['moonshot'], within: 1 },
  { kind: 'mixed', q: 'RAG 文档解析', expect: ['llamaparse', 'unstructured'] },

  // Chinese
  { kind: 'zh', q: '向量数据库', expect: ['pinecone', 'qdrant', 'weaviate'], within: 5 },
  { kind: 'zh', q: '支付', expect: ['stripe'] },
  { kind: 'zh', q: '语音识别', expect: ['assemblyai'] },
  { kind: 'zh', q: '语音合成', expect: ['elevenlabs'] },
  { kind: 'zh', q: '大模型', expect: ['openai', 'anthropic', 'google-gemini', 'deepseek'], within: 5, need: 3 },
  { kind: 'zh', q: '网页抓取', expect: ['firecrawl', 'apify'] },
  { kind: 'zh', q: '文生图', expect: ['stability-ai', 'black-forest-labs', 'ideogram', 'leonardo-ai', 'recraft', 'fal-ai'], within: 5, need: 3 },
  { kind: 'zh', q: '视频生成', expect: ['runway', 'luma-ai'], within: 5 },
  { kind: 'zh', q: '文字识别', expect: ['aws-textract', 'google-document-ai'], within: 5 },
  { kind: 'zh', q: '邮件', expect: ['resend', 'sendgrid', 'postmark'], within: 5 },
  { kind: 'zh', q: '短信', expect: ['twilio'], within: 1 },
  { kind: 'zh', q: '地图', expect: ['google-maps', 'mapbox'] },
  { kind: 'zh', q: '通义千问', expect: ['qwen'], within: 1 },
  { kind: 'zh', q: '月之暗面', expect: ['moonshot'], within: 1 },
  { kind: 'zh', q: '智谱', expect: ['zhipu'], within: 1 },
  { kind: 'zh', q: '深度求索', expect: ['deepseek'], within: 1 },
  { kind: 'zh', q: '数据仓库', expect: ['snowflake'] },
  { kind: 'zh', q: '错误监控', expect: ['sentry'] },
  { kind: 'zh', q: '抠图', expect: ['remove-bg'], within: 1 },
  { kind: 'zh', q: '自动化工作流', expect: ['zapier', 'n8n', 'make'], within: 5 },
  { kind: 'zh', q: '搜索引擎', expect: ['serpapi', 'serper', 'brave-search', 'tavily', 'exa', 'youcom'], within: 5, need: 2 },
  { kind: 'zh', q: '无服务器 GPU', expect: ['modal', 'runpod'] },
  { kind: 'zh', q: '重排序', expect: ['cohere', 'jina', 'voyage-ai', 'mixedbread'], within: 5, need: 3 },
  { kind: 'zh', q: '用户认证', expect: ['clerk'] },
  { kind: 'zh', q: '声音克隆', expect: ['elevenlabs'] },

  // Names people and agents use: products, former names, Chinese names
  { kind: 'name', q: 'chatgpt', expect: ['openai'], within: 1 },
  { kind: 'name', q: 'whisper', expect: ['openai'], within: 1 },
  { kind: 'name', q: 'sora', expect: ['openai'], within: 1 },
  { kind: 'name', q: 'claude sonnet', expect: ['anthropic'], within: 1 },
  { kind: 'name', q: 'kimi k2', expect: ['moonshot'], within: 1 },
  { kind: 'name', q: 'glm', expect: ['zhipu'], within: 1 },
  { kind: 'name', q: 'chatglm', expect: ['zhipu'], within: 1 },
  { kind: 'name', q: 'nano banana', expect: ['google-gemini'], within: 1 },
  { kind: 'name', q: 'bedrock', expect: ['aws-bedrock'], within: 1 },
  { kind: 'name', q: 'copilot', expect: ['github-copilot'], within: 1 },
  { kind: 'name', q: 'codestral', expect: ['mistral'], within: 1 },
  { kind: 'name', q: 'le chat', expect: ['mistral'], within: 1 },
  { kind: 'name', q: 'flux', expect: ['black-forest-labs'], within: 1 },
  { kind: 'name', q: 'stable diffusion', expect: ['stability-ai'], within: 1 },
  { kind: 'name', q: 'milvus', expect: ['zilliz'], within: 1 },
  { kind: 'name', q: 'grok', expect: ['xai-grok'], within: 1 },
  { kind: 'name', q: 'wandb', expect: ['weights-biases'], within: 1 },
  { kind: 'name', q: 'integromat', expect: ['make'], within: 1 },
  { kind: 'name', q: 'dashscope', expect: ['qwen'], within: 1 },
  { kind: 'name', q: 'metaphor search', expect: ['exa'], within: 1 },
  { kind: 'name', q: '支付宝', expect: ['alipay'], within: 1 },
  { kind: 'name', q: '微信支付', expect: ['wechat-pay'], within: 1 },
  { kind: 'name', q: '谷歌地图', expect: ['google-maps'], within: 1 },
  { kind: 'name', q: '抱抱脸', expect: ['huggingface'], within: 1 },
  { kind: 'name', q: '阿里云百炼', expect: ['qwen'], within: 1 },

  // Words typed apart that are one name, and one word that is two
  { kind: 'compound', q: 'open ai', expect: ['openai'], within: 1 },
  { kind: 'compound', q: 'deep seek', expect: ['deepseek'], within: 1 },
  { kind: 'compound', q: 'eleven labs', expect: ['elevenlabs'], within: 1 },
  { kind: 'compound', q: 'hugging face', expect: ['huggingface'], within: 1 },
  { kind: 'compound', q: 'black forest', expect: ['black-forest-labs'], within: 1 },
  { kind: 'compound', q: 'blackforest labs', expect: ['black-forest-labs'], within: 1 },
  { kind: 'compound', q: 'fire crawl', expect: ['firecrawl'], within: 1 },
  { kind: 'compound', q: 'assembly ai', expect: ['assemblyai'], within: 1 },
  { kind: 'compound', q: 'post hog', expect: ['posthog'], within: 1 },
  { kind: 'compound', q: 'open router', expect: ['openrouter'], within: 1 },
  { kind: 'compound', q: 'weights and biases', expect: ['weights-biases'], within: 1 },
  { kind: 'compound', q: 'lambdalabs', expect: ['lambda-cloud'], within: 1 },

  // Names written with punctuation, typed however
  { kind: 'punctuation', q: 'dall-e', expect: ['openai'], within: 1 },
  { kind: 'punctuation', q: 'dall·e', expect: ['openai'], within: 1 },
  { kind: 'punctuation', q: 'dalle', expect: ['openai'], within: 1 },
  { kind: 'punctuation', q: 'dall e', expect: ['openai'], within: 1 },
  { kind: 'punctuation', q: 'flux.2', expect: ['black-forest-labs'], within: 1 },
  { kind: 'punctuation', q: 'r.jina.ai', expect: ['jina'], within: 1 },
  { kind: 'punctuation', q: 'z.ai', expect: ['zhipu'], within: 1 },
  { kind: 'punctuation', q: 'e2b.dev', expect: ['e2b'], within: 1 },
  { kind: 'punctuation', q: 'w&b', expect: ['weights-biases'], within: 1 },
  { kind: 'punctuation', q: 'universal-3.5', expect: ['assemblyai'], within: 1 },

  // Filters, as parameters or asked for in words
  { kind: 'filter', q: 'llm', params: { freeTier: 'true' }, expect: ['google-gemini', 'mistral', 'groq', 'openrouter', 'together-ai', 'cohere'], within: 5, need: 3 },
  { kind: 'filter', q: 'llm', params: { auth: 'header-key' }, expect: ['anthropic', 'google-gemini', 'azure-openai'], within: 3, need: 2 },
  { kind: 'filter', q: 'llm', params: { minContext: '1m' }, expect: ['openai', 'anthropic', 'google-gemini', 'deepseek'], within: 5, need: 3 },
  { kind: 'filter', q: 'vector database', params: { sdk: 'go' }, expect: ['pinecone', 'qdrant', 'weaviate', 'zilliz'], within: 5, need: 3 },
  { kind: 'filter', q: 'speech to text', params: { freeTier: 'true' }, expect: ['speechmatics', 'gladia', 'azure-speech', 'elevenlabs'], within: 5, need: 2 },
  { kind: 'filter', q: 'free llm', expect: ['google-gemini', 'mistral', 'groq', 'openrouter', 'together-ai', 'cohere'], within: 5, need: 3 },
  { kind: 'filter', q: 'openai compatible inference', expect: ['groq', 'together-ai', 'fireworks-ai', 'deepinfra', 'cerebras'], within: 5, need: 2 },
  { kind: 'filter', q: 'cheap reasoning model', expect: ['deepseek'], within: 1 },
  { kind: 'filter', q: '免费 大模型', expect: ['google-gemini', 'mistral', 'groq', 'openrouter', 'together-ai', 'zhipu'], within: 5, need: 3 },
  { kind: 'filter', q: '便宜的大模型', expect: ['deepseek'], within: 3 },

  // Tasks, as an agent or a developer puts them
  { kind: 'task', q: 'transcribe a podcast', expect: ['assemblyai', 'deepgram', 'speechmatics', 'rev-ai', 'gladia', 'openai'], within: 5, need: 2 },
  { kind: 'task', q: 'generate images from text', expect: ['stability-ai', 'black-forest-labs', 'ideogram', 'leonardo-ai', 'recraft', 'fal-ai', 'openai'], within: 5, need: 3 },
  { kind: 'task', q: 'send transactional emails', expect: ['resend', 'postmark', 'sendgrid'], within: 3, need: 2 },
  { kind: 'task', q: 'turn a web page into markdown', expect: ['firecrawl', 'jina'], within: 5 },
  { kind: 'task', q: 'run untrusted code in a sandbox', expect: ['e2b'], within: 3 },
  { kind: 'task', q: 'accept card payments online', expect: ['stripe', 'paypal', 'square'], within: 5, need: 2 },
  { kind: 'task', q: '给用户发短信验证码', expect: ['twilio'], within: 3 },
  { kind: 'task', q: '识别图片里的文字', expect: ['aws-textract', 'google-document-ai', 'mistral'], within: 5, need: 2 },
  { kind: 'task', q: '把文字转成语音', expect: ['elevenlabs', 'openai', 'cartesia', 'amazon-polly', 'azure-speech'], within: 5, need: 2 },
  { kind: 'task', q: '在线收款', expect: ['stripe', 'alipay', 'wechat-pay', 'paypal'], within: 5, need: 2 },
  // Model ids and names: the listing that serves the model
  { kind: 'model', q: 'gpt-6-luna', expect: ['openai'], within: 1 },
  { kind: 'model', q: 'gpt-6.2-astra', expect: ['openai'], within: 1 },
  { kind: 'model', q: 'claude-sonnet-5-5', expect: ['anthropic'], within: 1 },
  { kind: 'model', q: 'gemini-3.8-flash', expect: ['google-gemini'], within: 1 },
  { kind: 'model', q: 'nova-3', expect: ['deepgram'], within: 1 },
  { kind: 'model', q: 'sonic-3.5', expect: ['cartesia'], within: 1 },
  { kind: 'model', q: 'mistral-medium-3-5', expect: ['mistral'], within: 1 },
  { kind: 'model', q: 'text-embedding-3-large', expect: ['openai'], within: 1 },
];
