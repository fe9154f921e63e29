import ipaddr from 'ipaddr.js';

/**
 * Whose budget a request spends, and whose share of connections a connection takes: its IPv4 address,
 * or the /64 network of its IPv6 address (one host is usually given a whole /64, so counting single IPv6
 * addresses would let it use 2^64 budgets). IPv4 written as IPv6 (`::ffff:192.0.2.1`) counts as IPv4.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * Whether a peer is a proxy whose X-Forwarded-For names the client (TRUST_PROXY): on, a hop count (the
 * peer is the first hop), or addresses and CIDR ranges.
 */
export function trustedProxy(trust: boolean | number | string[]): (peer: string) => boolean {
  if (trust === true || (typeof trust === 'number' && trust > 0)) return () => true;
  if (!Array.isArray(trust) || trust.length === 0) return () => false;
  const ranges = trust.map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`)));
  return (peer) => {
    if (!ipaddr.isValid(peer)) return false;
    const address = ipaddr.process(peer);
    return ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  };
}
