import { clientKey, trustedProxy } from './client-address';

describe('the key a client is counted under', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:0207', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
  ])('%s -> %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });

  it('puts every address of one IPv6 /64 under one key, and another /64 under another', () => {
    expect(clientKey('2001:db8:a:b::1')).toBe(clientKey('2001:db8:a:b:ffff::2'));
    expect(clientKey('2001:db8:a:b::1')).not.toBe(clientKey('2001:db8:a:c::1'));
  });
});

describe('a trusted proxy', () => {
  it('is every peer when TRUST_PROXY is on or a hop count, none when off', () => {
    expect(trustedProxy(true)('192.0.2.1')).toBe(true);
    expect(trustedProxy(1)('2001:db8::1')).toBe(true);
    expect(trustedProxy(false)('127.0.0.1')).toBe(false);
  });

  it('is a peer in one of the addresses or ranges given, IPv4 written as IPv6 included', () => {
    const trusted = trustedProxy(['127.0.0.1', '10.0.0.0/8', '2001:db8:1::/48']);
    expect(['127.0.0.1', '::ffff:127.0.0.1', '10.200.3.4', '2001:db8:1:ffff::7'].map(trusted)).toEqual([true, true, true, true]);
    expect(['127.0.0.2', '11.0.0.1', '2001:db8:2::1', '::1', 'not an address'].map(trusted)).toEqual([false, false, false, false, false]);
  });
});
