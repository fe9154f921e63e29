import { isIPv4, isIPv6 } from 'node:net';

/**
 * A host as RFC 3986 writes one (a name, an IPv4 address or a bracketed IPv6 address) with an optional
 * port, and only characters the WHATWG URL parser also takes in a host: percent-encoding, userinfo, a
 * path or a query are not part of a Host.
 */
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9\-._~!$&'()*+,;=]+))(?::(\d{0,5}))?$/;
/** A last label of digits (or 0x...) makes a URL parser read the whole name as an IPv4 address. */
const NUMERIC_LABEL = /(?:^|\.)(?:\d+|0[xX][0-9A-Fa-f]*)\.?$/;

/**
 * Whether a Host (or a trusted X-Forwarded-Host) can be the authority of the links the service builds
 * from it (llms.txt, the API catalog, the MCP endpoint's request URL). A few regular expression steps:
 * it runs on every request.
 */
export function isValidHost(host: string): boolean {
  const parts = HOST.exec(host);
  if (!parts) return false;
  const [, ipv6, name, port] = parts;
  if (port !== undefined && port !== '' && Number(port) > 65535) return false;
  if (ipv6 !== undefined) return isIPv6(ipv6);
  return !NUMERIC_LABEL.test(name) || isIPv4(name.replace(/\.$/, ''));
}
