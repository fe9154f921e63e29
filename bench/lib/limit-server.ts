import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * "The limit": a bare Node http server answering each path with a precomputed JSON body (the same bytes the
 * service sends for it), so the only work is HTTP itself. Usage: limit-server <port> <bodies.json>
 * [<encoded.json>], where bodies.json maps path -> body, and encoded.json path -> { encoding, base64 }:
 * the compressed bytes the service sends for it, sent to a request that carries Accept-Encoding. The
 * bodies are JSON unless LIMIT_CONTENT_TYPE says otherwise (bench/pages.ts sends HTML).
 */
const contentType = process.env.LIMIT_CONTENT_TYPE ?? 'application/json; charset=utf-8';
const [port, file, encodedFile] = process.argv.slice(2);
const bodies = new Map<string, Buffer>(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b)]));
const encoded = new Map<string, { encoding: string; body: Buffer }>(
  encodedFile
    ? Object.entries(JSON.parse(readFileSync(encodedFile, 'utf8')) as Record<string, { encoding: string; base64: string }>).map(([p, e]) => [
        p,
        { encoding: e.encoding, body: Buffer.from(e.base64, 'base64') },
      ])
    : [],
);
const fallback = bodies.values().next().value!;
createServer((request, response) => {
  const compressed = request.headers['accept-encoding'] ? encoded.get(request.url ?? '') : undefined;
  if (compressed) {
    response.writeHead(200, {
      'content-type': contentType,
      'content-encoding': compressed.encoding,
      'content-length': compressed.body.length,
    });
    response.end(compressed.body);
    return;
  }
  const body = bodies.get(request.url ?? '') ?? fallback;
  response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
}).listen(Number(port), '127.0.0.1');
