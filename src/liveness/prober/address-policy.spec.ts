import { AddressPolicy } from './address-policy';

describe('the addresses the prober may connect to', () => {
  const policy = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    expect(policy.refusal(address)).toBe(`${address} is in a ${range} range`);
  });

  it.each(['::7f00:1', '::a9fe:a9fe', '::808:808'])('refuses the IPv4-compatible form %s (::/96), whatever it carries', (address) => {
    expect(policy.refusal(address)).toBe(`${address} is in an ipv4Compatible range`);
  });

  it.each(['8.8.8.8', '104.18.2.3', '2606:4700::6810:84e5'])('allows the public address %s', (address) => {
    expect(policy.refusal(address)).toBeNull();
  });

  it('refuses what is no address', () => {
    expect(policy.refusal('localhost')).toBe("'localhost' is not an IP address");
  });

  it('lets through only the ranges a test allows, of the same family', () => {
    const testing = new AddressPolicy(['127.0.0.1', '10.9.0.0/16']);
    expect(testing.refusal('127.0.0.1')).toBeNull();
    expect(testing.refusal('127.0.0.2')).not.toBeNull();
    expect(testing.refusal('10.9.3.4')).toBeNull();
    expect(testing.refusal('10.8.0.1')).not.toBeNull();
    expect(testing.refusal('::1')).not.toBeNull();
  });
});
