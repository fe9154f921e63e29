import ipaddr from 'ipaddr.js';

/**
 * Which addresses the prober may connect to: public unicast addresses only. Loopback, private (RFC 1918,
 * unique local), link-local (the cloud metadata services at 169.254.169.254 and fd00:ec2::254 among them),
 * carrier-grade NAT, multicast, reserved and unspecified ranges are refused, and so are IPv6 forms that
 * carry an IPv4 address (mapped, IPv4-compatible, 6to4, Teredo, NAT64), whatever they carry. ipaddr.js names the ranges.
 *
 * `allowed` is a list of CIDR ranges let through all the same: for tests only, whose stand-in servers
 * listen on loopback. It is empty unless LIVENESS_ALLOW_ADDRESSES sets it.
 */
export class AddressPolicy {
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(allowed: readonly string[] = []) {
    this.allowed = allowed.map((cidr) => parseRange(cidr));
  }

  /** Why the prober may not connect to this address, or null when it may. */
  refusal(address: string): string | null {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.parse(address);
    } catch {
      return `'${address}' is not an IP address`;
    }
    if (this.allowed.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits))) return null;
    const range = parsed.range();
    if (range !== 'unicast') return `${address} is in a ${range} range`;
    // ::/96, the deprecated IPv4-compatible form (::7f00:1 is 127.0.0.1 to some stacks): ipaddr.js calls
    // it unicast, and only the system resolver's way of printing it (::127.0.0.1) kept it out before.
    if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE, 96)) return `${address} is in an ipv4Compatible range`;
    return null;
  }
}

const IPV4_COMPATIBLE = ipaddr.parse('::');

/** A CIDR range (`10.0.0.0/8`, `::1/128`) or a single address; throws on anything else. */
export function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (text.includes('/')) return ipaddr.parseCIDR(text);
  const address = ipaddr.parse(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
