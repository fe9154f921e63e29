import { AppConfig, InvalidSettingsError } from './app-config';

describe('settings', () => {
  it('have defaults that serve a developer', () => {
    const config = new AppConfig({});
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.projectorEnabled).toBe(true);
    expect(config.readCache).toBe(true);
    expect(config.logRequests).toBe(false);
    expect(config.fixturesDir).toMatch(/\/fixtures$/);
  });

  it("leave the prober's test-only settings empty by default, so it asks DNS and refuses private addresses", () => {
    const { liveness } = new AppConfig({});
    expect(liveness.hosts.size).toBe(0);
    expect(liveness.allowAddresses).toEqual([]);
    expect(liveness.ca).toBeNull();
    expect(liveness.contactUrl).toBeNull();
    expect(new AppConfig({ PUBLIC_BASE_URL: 'https://dir.example.org' }).liveness.contactUrl).toBe('https://dir.example.org');
    expect(liveness).toMatchObject({ intervalMs: 3_600_000, jitterMs: 300_000, confirmMs: 600_000, connectTimeoutMs: 5_000, timeoutMs: 15_000, hostSpacingMs: 2_000 });
  });

  it("refuse a wrong prober setting, naming it", () => {
    const problems = (settings: Record<string, string>) => {
      try {
        new AppConfig(settings);
        return [];
      } catch (error) {
        return (error as InvalidSettingsError).problems;
      }
    };
    expect(problems({ LIVENESS_HOSTS: 'a.test=localhost' })).toEqual(["LIVENESS_HOSTS: must be a comma-separated list of name=address (an IP address), got 'a.test=localhost'"]);
    expect(problems({ LIVENESS_ALLOW_ADDRESSES: '10.0.0.0/33' })).toEqual(["LIVENESS_ALLOW_ADDRESSES: must be comma-separated IP addresses or CIDR ranges, got '10.0.0.0/33'"]);
    expect(problems({ LIVENESS_CONNECT_TIMEOUT_MS: '5000', LIVENESS_TIMEOUT_MS: '1000' })).toEqual(["LIVENESS_TIMEOUT_MS: must not be less than LIVENESS_CONNECT_TIMEOUT_MS (5000), got '1000'"]);
  });

  it.each([
    ['on', true], ['ON', true], ['true', true], ['yes', true], ['1', true], ['enabled', true],
    ['off', false], ['False', false], ['no', false], ['0', false], ['disabled', false],
  ])('take %s for a flag', (value, expected) => {
    expect(new AppConfig({ PROJECTOR: value, READ_CACHE: value, LOG_REQUESTS: value }).projectorEnabled).toBe(expected);
    expect(new AppConfig({ READ_CACHE: value }).readCache).toBe(expected);
    expect(new AppConfig({ LOG_REQUESTS: value }).logRequests).toBe(expected);
  });

  it('refuse wrong values at start, naming every one and why', () => {
    let error: unknown;
    try {
      new AppConfig({ PORT: 'abc', PROJECTOR: 'maybe', REDIS_URL: 'http://x', LOG_LEVEL: 'loud', PROJECTOR_BATCH_SIZE: '0', REDIS_CLUSTER_NODES: 'a:1,b' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidSettingsError);
    const lines = (error as InvalidSettingsError).problems;
    expect(lines).toEqual([
      "PORT: must be a whole number from 1 to 65535, got 'abc'",
      "REDIS_URL: must be a redis:// or rediss:// URL, got 'http://x'",
      "REDIS_CLUSTER_NODES: must be a comma-separated list of host:port, got 'a:1,b'",
      "PROJECTOR: must be on or off (also true/false, yes/no, 1/0, enabled/disabled), got 'maybe'",
      "PROJECTOR_BATCH_SIZE: must be a whole number from 1 to 100000, got '0'",
      "LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'",
    ]);
    expect((error as Error).message).toContain('invalid settings:');
  });

  it('refuse a namespace that is not a plain word', () => {
    expect(() => new AppConfig({ REDIS_NAMESPACE: 'a{b}' })).toThrow(/REDIS_NAMESPACE: must be only letters/);
  });

  it('limit clients and requests by default, generously for people and agents', () => {
    const config = new AppConfig({});
    expect(config.rateLimitPerMinute).toBe(600);
    expect(config.searchRateLimitPerMinute).toBe(60);
    expect(config.trustProxy).toBe(false);
    expect([config.headersTimeoutMs, config.requestTimeoutMs, config.maxConnections, config.shutdownTimeoutMs]).toEqual([10_000, 30_000, 2_000, 10_000]);
    // One client may hold a tenth of the process's connections.
    expect(config.maxConnectionsPerClient).toBe(200);
    expect(new AppConfig({ MAX_CONNECTIONS: '50' }).maxConnectionsPerClient).toBe(5);
    expect(config.hsts).toBe(false);
  });

  it.each([
    ['off', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['on', true],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 2001:db8::/32', ['10.0.0.0/8', '2001:db8::/32']],
  ])('read TRUST_PROXY=%s (digits are hops: 1 is the proxy in front, never every hop)', (value, expected) => {
    expect(new AppConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuse a client share of connections larger than the process holds', () => {
    expect(() => new AppConfig({ MAX_CONNECTIONS: '100', MAX_CONNECTIONS_PER_CLIENT: '101' })).toThrow(/MAX_CONNECTIONS_PER_CLIENT: must be a whole number from 0 to 100, got '101'/);
    expect(new AppConfig({ MAX_CONNECTIONS_PER_CLIENT: '0' }).maxConnectionsPerClient).toBe(0);
  });

  it('refuse a proxy that is no address, and a header timeout longer than the request timeout', () => {
    expect(() => new AppConfig({ TRUST_PROXY: 'the-proxy' })).toThrow(/TRUST_PROXY: must be on, off, a number of hops, or comma-separated proxy addresses or CIDR ranges, got 'the-proxy'/);
    expect(() => new AppConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => new AppConfig({ PUBLIC_HOSTS: 'dir.example.org, http://x/' })).toThrow(/PUBLIC_HOSTS: must be comma-separated host names, each optionally with :port/);
    expect(new AppConfig({ PUBLIC_HOSTS: 'Dir.Example.org, m.example.net:8443' }).publicHosts).toEqual(['dir.example.org', 'm.example.net:8443']);
    expect(() => new AppConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '2000' })).toThrow(/HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS \(2000\), got '5000'/);
  });
});

describe('renamed settings', () => {
  it('take the old name, saying it is deprecated; the new name wins when both are set', () => {
    const config = new AppConfig({ PROJECTOR_WORKERS: '2', SEARCH_CACHE_SIZE: '50' });
    expect([config.importReadThreads, config.readCacheResponses]).toEqual([2, 50]);
    expect(config.deprecations).toEqual([
      'PROJECTOR_WORKERS is deprecated: it is now IMPORT_READ_THREADS (taken as IMPORT_READ_THREADS=2)',
      'SEARCH_CACHE_SIZE is deprecated: it is now READ_CACHE_RESPONSES (taken as READ_CACHE_RESPONSES=50)',
    ]);
    const both = new AppConfig({ PROJECTOR_WORKERS: '2', IMPORT_READ_THREADS: '3' });
    expect(both.importReadThreads).toBe(3);
    expect(both.deprecations).toEqual(['PROJECTOR_WORKERS is deprecated: it is now IMPORT_READ_THREADS, which is set and wins']);
    expect(new AppConfig({}).deprecations).toEqual([]);
  });
});

it('refuse a CA file for a plain redis:// URL, and one that cannot be read', () => {
  expect(() => new AppConfig({ REDIS_TLS_CA: __filename })).toThrow(/REDIS_TLS_CA: is for TLS, but REDIS_URL is not a rediss:\/\/ URL$/m);
  expect(() => new AppConfig({ REDIS_URL: 'rediss://x:6380', REDIS_TLS_CA: '/no/such/file.pem' })).toThrow(/REDIS_TLS_CA: must be a file this process can read, got '\/no\/such\/file.pem'/);
  expect(new AppConfig({ REDIS_URL: 'rediss://x:6380', REDIS_TLS_CA: __filename }).redisTlsCa).toBe(__filename);
});
