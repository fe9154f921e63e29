import { Logger } from '@nestjs/common';
import { Agent, request } from 'node:http';
import { dropNamespace, REDIS_URL, RunningService, startService, uniqueNamespace } from './support/harness';
import { parseResponses, rawExchange } from './support/raw-http';
import { MAX_BASES } from '../src/http/base-url';
import { errorLines, startServiceProcess } from './support/service-process';

/**
 * HTTP as a client relies on it: pipelined requests answered in order, one answer per request, a Host
 * that is not a host refused, error details in the service's own words, and a SIGTERM under load that
 * no client sees as a reset.
 */

const portOf = (url: string) => Number(new URL(url).port);

describe('requests on one connection', () => {
  let service: RunningService;
  let port: number;

  beforeAll(async () => {
    service = await startService('http-correct', { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
    port = portOf(service.baseUrl);
  });
  afterAll(() => service?.close());

  it('answers valid pipelined requests, in order, before refusing the malformed one after them', async () => {
    const exchange = await rawExchange(
      port,
      'GET /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/tools/stripe HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/tools/anthropic HTTP/1.1\r\nHo st: x\r\n\r\n',
      5000,
    );
    const answers = parseResponses(exchange.text);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(JSON.parse(answers[0].body).tool.slug).toBe('openai');
    expect(JSON.parse(answers[1].body).tool.slug).toBe('stripe');
    // The refusal names the request it refuses, not the first one on the connection.
    expect(JSON.parse(answers[2].body)).toMatchObject({ status: 400, instance: '/api/v1/tools/anthropic' });
    expect(answers[2].headers.connection).toBe('close');
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  // Each request below says a body follows and never sends it. Answered before the body is read, its
  // connection must close with the answer: left open, the request timeout (2 s here) later wrote a 408
  // nobody asked for on the same connection.
  it.each([
    ['a content type the endpoint does not read', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\nContent-Length: 100\r\n\r\n', 415],
    ['a body larger than the endpoint takes', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n', 413],
    ['a malformed Host', 'POST /mcp HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', 400],
  ])('one request, one answer: %s is answered once and its connection closed', async (_, bytes, status) => {
    const exchange = await rawExchange(port, bytes, 6000);
    expect(parseResponses(exchange.text).map((a) => a.status)).toEqual([status]);
    expect(parseResponses(exchange.text)[0].headers.connection).toBe('close');
    expect(exchange.closedAfterMs).not.toBeNull();
  });

  it('one request, one answer: a rate-limited POST whose body never arrives gets its 429 only', async () => {
    const limited = await startService('http-correct-429', { RATE_LIMIT_PER_MINUTE: '1', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
    try {
      const limitedPort = portOf(limited.baseUrl);
      expect(parseResponses((await rawExchange(limitedPort, 'GET /api/v1/tools/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text)[0].status).not.toBe(429);
      const exchange = await rawExchange(limitedPort, 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', 7000);
      const answers = parseResponses(exchange.text);
      expect(answers.map((a) => a.status)).toEqual([429]);
      expect(answers[0].headers.connection).toBe('close');
      expect(exchange.closedAfterMs).not.toBeNull();
    } finally {
      await limited.close();
    }
  }, 30_000);

  describe('a malformed Host', () => {
    const hosts = ['a b', 'x:99999', 'a/b', 'user@host', 'host?x', '999.1.1.1', '[::1', ''];

    it.each(['/api/v1/tools/openai', '/', '/llms.txt', '/api/v1/tools/search?q=gpu', '/readyz'])('on %s is a 400 problem document naming the Host', async (path) => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      try {
        for (const host of hosts) {
          const [answer] = parseResponses((await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text);
          expect({ host, status: answer.status }).toEqual({ host, status: 400 });
          expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(answer.headers['access-control-allow-origin']).toBe('*');
          expect(JSON.parse(answer.body)).toMatchObject({ status: 400, title: 'Bad request', detail: expect.stringMatching(/Host/) });
        }
        expect(errors).not.toHaveBeenCalled();
      } finally {
        errors.mockRestore();
      }
    });

    it('on the MCP endpoint is a JSON-RPC error, not a 500, and nothing is logged as an error', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      try {
        for (const path of ['/mcp', '/api/mcp', '/.well-known/mcp']) {
          for (const host of hosts) {
            const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
            const exchange = await rawExchange(
              port,
              `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
            );
            const [answer] = parseResponses(exchange.text);
            expect({ path, host, status: answer.status }).toEqual({ path, host, status: 400 });
            expect(answer.headers['content-type']).toMatch(/^application\/json/);
            expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/Host/) } });
          }
        }
        expect(errors).not.toHaveBeenCalled();
      } finally {
        errors.mockRestore();
      }
    });

    it('is not confused with a good one: names, addresses and ports are served', async () => {
      for (const host of ['directory.example.org', 'directory.example.org:8080', '127.0.0.1:3000', '[::1]:3000', 'localhost']) {
        const [answer] = parseResponses((await rawExchange(port, `GET /api/v1/tools/openai HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text);
        expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      }
    });
  });

  it.each([
    ['/api/v1/tools/search?query=text%20to%20speech', 'query', 'q'],
    ['/api/v1/tools?free_tier=true', 'free_tier', 'freeTier'],
    ['/api/v1/tools/search?q=tts&catgory=ai', 'catgory', 'category'],
    ['/api/v1/models?minContex=100000', 'minContex', 'minContext'],
    ['/api/v1/tools/openai?as_of=2026-11-01', 'as_of', 'asOf'],
    ['/api/v1/tools?page=2', 'page', 'cursor'],
  ])('refuses an unknown query parameter with a 400 naming it and the closest known name: %s', async (path, parameter, didYouMean) => {
    const response = await fetch(service.baseUrl + path);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toMatchObject({ status: 400, parameter, didYouMean });
    expect(body.detail).toContain(`did you mean '${didYouMean}'?`);
  });

  it('names the parameters a route takes when an unknown one is nothing like them, and refuses any on a route that takes none', async () => {
    const far = await (await fetch(`${service.baseUrl}/api/v1/tools/search?zzzzzzzzzzzz=1`)).json();
    expect(far).toMatchObject({ status: 400, parameter: 'zzzzzzzzzzzz' });
    expect(far.didYouMean).toBeUndefined();
    expect(far.detail).toContain("'q', 'category'");
    const none = await fetch(`${service.baseUrl}/api/v1/tools/categories?lang=zh`);
    expect(none.status).toBe(400);
    expect((await none.json()).detail).toContain('it takes no query parameters');
    // Known parameters, pages and discovery files are not touched by the rule.
    expect((await fetch(`${service.baseUrl}/api/v1/tools/search?q=tts&limit=2`)).status).toBe(200);
    expect((await fetch(`${service.baseUrl}/llms.txt?utm_source=x`)).status).toBe(200);
  });

  describe('links in the documents everyone is served', () => {
    const get = async (path: string, host: string) => parseResponses((await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text)[0];

    it.each(['/llms.txt', '/sitemap.xml', '/agents.txt'])('%s never carries a Host a client made up: links go to the service on its own port', async (path) => {
      const answer = await get(path, 'evil.example');
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain('evil.example');
      expect(answer.body).toContain(`http://localhost:${port}/`);
    });

    it('a loopback Host, any port (a port mapping), gets links to itself; past a few such bases, the fallback', async () => {
      expect((await get('/llms.txt', 'localhost:8080')).body).toContain('http://localhost:8080/');
      expect((await get('/llms.txt', '[::1]:9')).body).toContain('http://[::1]:9/');
      const bases = new Set<string>();
      for (let p = 20000; p < 20000 + MAX_BASES + 4; p++) {
        const body = (await get('/llms.txt', `127.0.0.1:${p}`)).body;
        bases.add(/http:\/\/[^/\s)]+/.exec(body)![0]);
      }
      // However many a client makes up, the process renders at most MAX_BASES (and the fallback).
      expect(bases.size).toBeLessThanOrEqual(MAX_BASES);
      expect(bases).toContain(`http://localhost:${port}`);
    });

    it('a render of a large document the cache cannot answer spends from the search budget, 429 past it; a cached one does not', async () => {
      const budgeted = await startService('http-correct-render-budget', { SEARCH_RATE_LIMIT_PER_MINUTE: '3' });
      try {
        await budgeted.ingest(['fixtures']);
        const other = portOf(budgeted.baseUrl);
        const ask = async (path: string, host: string) => parseResponses((await rawExchange(other, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text)[0];
        // Three bases, three renders: the budget is spent.
        for (const [path, p] of [['/llms-full.txt', 1], ['/sitemap.xml', 2], ['/llms.txt', 3]] as const) expect((await ask(path, `localhost:${p}`)).status).toBe(200);
        const refused = await ask('/llms-full.txt', 'localhost:4');
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect((await ask('/sitemap.xml', 'localhost:5')).status).toBe(429);
        // What is rendered already is served from the cache, whatever the budget.
        expect((await ask('/llms-full.txt', 'localhost:1')).status).toBe(200);
        expect((await ask('/sitemap.xml', 'localhost:2')).status).toBe(200);
      } finally {
        await budgeted.close();
      }
    });

    it('PUBLIC_HOSTS names the other hosts the service answers for', async () => {
      const named = await startService('http-correct-hosts', { PUBLIC_HOSTS: 'dir.example.org, mirror.example.net:8443' });
      try {
        const other = portOf(named.baseUrl);
        const ask = async (host: string) => parseResponses((await rawExchange(other, `GET /llms.txt HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text)[0].body;
        expect(await ask('dir.example.org')).toContain('http://dir.example.org/');
        expect(await ask('dir.example.org:81')).toContain('http://dir.example.org:81/');
        expect(await ask('mirror.example.net:8443')).toContain('http://mirror.example.net:8443/');
        expect(await ask('mirror.example.net:9999')).toContain(`http://localhost:${other}/`);
      } finally {
        await named.close();
      }
    });
  });

  it("names what is wrong with a request that is not HTTP in its own words, never the parser's", async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['GET / HTTP/1.1\r\nHo st: x\r\n\r\n', 'Invalid header token', /header/],
      ['GET / HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n', 'Invalid header value char', /header/],
      ['GET / HTTP/9.9\r\nHost: x\r\n\r\n', 'Invalid HTTP version', /HTTP\/1\.1/],
      ['GET / HTTX/1.1\r\nHost: x\r\n\r\n', 'Expected HTTP/, RTSP/ or ICE/', /HTTP\/1\.1/],
      ['GET / HTTP/1.1\r\nHost: x\rX: y\r\n\r\n', 'Missing expected LF after header value', /CRLF/],
      ['POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 'Invalid character in Content-Length', /Content-Length/],
      ['POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 'Duplicate Content-Length', /Content-Length/],
      ['POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', "Transfer-Encoding can't be present with Content-Length", /Transfer-Encoding/],
      ['POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'Invalid character in chunk size', /chunk/],
    ];
    for (const [bytes, parserReason, names] of cases) {
      const [answer] = parseResponses((await rawExchange(port, bytes)).text);
      expect({ bytes, status: answer?.status }).toEqual({ bytes, status: 400 });
      const { detail } = JSON.parse(answer.body) as { detail: string };
      expect(detail).toMatch(/^the request is not valid HTTP\/1\.1: /);
      expect(detail).toMatch(names);
      expect(detail.toLowerCase()).not.toContain(parserReason.toLowerCase());
      expect(detail).not.toMatch(/HPE_|Parse Error/);
    }
  });
});

/**
 * GET over the given agent; resolves with the status and Connection header, or the error's code.
 */
function get(url: string, agent: Agent): Promise<{ status?: number; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message });
    request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection }));
      response.on('error', failed);
    })
      .on('error', failed)
      .end();
  });
}

describe('SIGTERM under load', () => {
  it('answers every request in flight with Connection: close, closes idle connections cleanly, and no client sees a reset', async () => {
    const namespace = uniqueNamespace('sigterm-load');
    const service = await startServiceProcess({ REDIS_URL, REDIS_NAMESPACE: namespace, RATE_LIMIT_PER_MINUTE: '0', SEARCH_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      // Clients under load: 8 kept-alive connections, each sending its next request as soon as it has
      // the answer to the one before, as an HTTP client library's pool does.
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const url = `${service.url}/api/v1/tools/search?q=gpu`;
      let answered = 0;
      let closing = 0;
      let stopped = false;
      const failures: string[] = [];
      let signalled: () => void;
      const enough = new Promise<void>((resolve) => (signalled = resolve));
      const client = async () => {
        for (;;) {
          const outcome = await get(url, agent);
          if (outcome.error === 'ECONNREFUSED' && stopped) return;
          if (outcome.error) failures.push(outcome.error);
          else {
            expect(outcome.status).toBe(200);
            answered++;
            if (stopped && outcome.connection === 'close') closing++;
            if (answered === 400) signalled();
          }
          if (failures.length > 20) return;
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await enough;
      stopped = true;
      service.child.kill('SIGTERM');
      await Promise.all(clients);
      agent.destroy();
      // Every request got its answer or, once the process stopped listening, a refused connection (a
      // client goes to another instance): none was reset.
      expect(failures).toEqual([]);
      expect(closing).toBeGreaterThan(0);
      const code = await service.exited;
      expect({ code, log: code === 0 ? '' : service.output() }).toEqual({ code: 0, log: '' });
      expect(errorLines(service.output())).toEqual([]);
    } finally {
      // (Stopped before its namespace is dropped: its projector would write it again.)
      if (service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
      await dropNamespace(namespace);
    }
  }, 90_000);
});
