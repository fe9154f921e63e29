import { connect, Socket } from 'node:net';

export interface RawExchange {
  /** Everything the service sent, as latin1 text. */
  text: string;
  /** Milliseconds from the first byte sent until the service closed the connection (null: still open at the end). */
  closedAfterMs: number | null;
}

/**
 * Sends `bytes` on a connection of its own, exactly as given (no URL normalising, bad requests included),
 * and collects what comes back until the service closes the connection or `waitMs` passes.
 */
export function rawExchange(port: number, bytes: string | Buffer, waitMs = 3000, localAddress?: string): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closedAfterMs: closed ? Date.now() - started : null });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP/1.1 responses in a stream of bytes (bodies by Content-Length; none for 204, 304 and HEAD). */
export function parseResponses(text: string, head = false): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = head || status < 200 || status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
    // latin1 keeps one character per byte (Content-Length counts bytes); the body itself is UTF-8.
    responses.push({ status, headers, body: Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8') });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
