import ipaddr from 'ipaddr.js';

/**
 * Which addresses the prober may connect to: public unicast addresses only. Loopback, private (RFC 1918,
 * unique local), link-local (the cloud metadata services at 169.254.169.254 and fd00:ec2::254 among them),
 * carrier-grade NAT, multicast, reserved and unspecified ranges are refused, and so are IPv6 forms that
 * carry an IPv4 address (mapped, 6to4, Teredo, NAT64), whatever they carry. ipaddr.js names the ranges.
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
    return range === 'unicast' ? null : `${address} is in a ${range} range`;
  }
}

/** A CIDR range (`10.0.0.0/8`, `::1/128`) or a single address; throws on anything else. */
export function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (text.includes('/')) return ipaddr.parseCIDR(text);
  const address = ipaddr.parse(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
