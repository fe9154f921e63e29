import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * "The limit": a bare Node http server answering each path with a precomputed JSON body (the same bytes the
 * service sends for it), so the only work is HTTP itself. Usage: limit-server <port> <bodies.json>,
 * where bodies.json maps path -> body.
 */
const [port, file] = process.argv.slice(2);
const bodies = new Map<string, Buffer>(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b)]));
const fallback = bodies.values().next().value!;
createServer((request, response) => {
  const body = bodies.get(request.url ?? '') ?? fallback;
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}).listen(Number(port), '127.0.0.1');
