import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  /** Bytes received per response, headers included. */
  bytes: number;
}

/**
 * Drives a server with autocannon (keep-alive, no pipelining): each connection cycles through `paths`,
 * sending `headers` with every request. Latencies in milliseconds.
 */
export async function load(baseUrl: string, paths: string[], connections: number, seconds: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    pipelining: 1,
    headers,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  return loadResult(result);
}

/** What the benchmarks keep of an autocannon run. */
export function loadResult(result: autocannon.Result): LoadResult {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
  };
}
