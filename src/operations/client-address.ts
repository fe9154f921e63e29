import { isIPv6 } from 'node:net';

/**
 * Whose budget a request spends: its IPv4 address, or the /64 network of its IPv6 address (one host is
 * usually given a whole /64, so counting single IPv6 addresses would let it use 2^64 budgets). IPv4
 * written as IPv6 (`::ffff:192.0.2.1`) counts as IPv4.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an embedded IPv4 tail converted, a zone dropped). */
function ipv6Groups(ip: string): number[] {
  const [address] = ip.split('%');
  const toGroups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a, b, c, d] = group.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const gap = address.indexOf('::');
  if (gap === -1) return toGroups(address);
  const head = toGroups(address.slice(0, gap));
  const tail = toGroups(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
