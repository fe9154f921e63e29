import { isValidHost } from './host-header';

describe('a Host the service builds links from', () => {
  it.each(['directory.example.org', 'directory.example.org:8080', 'directory.example.org.', 'localhost', 'localhost:', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:3000', '[2001:db8::7]', 'api_dir.internal', 'x', 'a-b.c-d.example', '3com.example'])('takes %s', (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each(['', 'a b', 'x:99999', 'x:3000:1', 'a/b', 'user@host', 'host?x', 'host#x', '999.1.1.1', '1.2.3', '1.2.3.4.5', 'example.0x1f', '[::1', '[::g]', '[::1]x', 'exa%41mple', 'a\\b', 'ex<ample>', 'é.example'])('refuses %j', (host) => {
    expect(isValidHost(host)).toBe(false);
  });
});
