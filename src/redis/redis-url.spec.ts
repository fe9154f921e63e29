import { redactUrl } from '../config/app-config';
import { isLoopbackHost } from './redis-url';

describe('a Redis URL as printed', () => {
  it.each([
    ['redis://:s3cret@db:6379', 'redis://:***@db:6379'],
    ['redis://app:s3cret@db:6379/0', 'redis://app:***@db:6379/0'],
    ['rediss://app:p%40ss@cache.example:6380', 'rediss://app:***@cache.example:6380'],
    ['redis://db:6379', 'redis://db:6379'],
    ['redis://app@db:6379', 'redis://app@db:6379'],
    ['got \'redis//app:s3cret@db\'', 'got \'redis//app:***@db\''],
  ])('%s -> %s', (url, printed) => {
    expect(redactUrl(url)).toBe(printed);
  });
});

describe('a loopback host', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])('%s is', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['db', '10.0.0.1', '[2001:db8::1]', 'localhost.example'])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
});
