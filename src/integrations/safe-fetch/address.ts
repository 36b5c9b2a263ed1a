import ipaddr from 'ipaddr.js';

/**
 * Address policy of the safe fetcher: only public unicast addresses may be reached. Everything is
 * decided on parsed bytes, never on the spelling of the host, and anything that cannot be parsed with
 * certainty is refused (fail closed).
 */

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). */
const BLOCKED_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges refused inside the global unicast block 2000::/3 (everything outside it is refused). */
const BLOCKED_V6_GLOBAL: [string, number, string][] = [
  ['2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4 (embeds an IPv4 address)'],
  ['3fff::', 20, 'documentation'],
];

const parsedV4 = BLOCKED_V4.map(([a, bits, why]) => [ipaddr.IPv4.parse(a), bits, why] as const);
const parsedV6 = BLOCKED_V6_GLOBAL.map(([a, bits, why]) => [ipaddr.IPv6.parse(a), bits, why] as const);
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

export type AddressVerdict = { allowed: true; address: string } | { allowed: false; reason: string };

/** Decides whether one parsed address is public unicast. */
export function checkAddress(address: ipaddr.IPv4 | ipaddr.IPv6): AddressVerdict {
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    for (const [range, bits, why] of parsedV4) {
      if (v4.match(range, bits)) return { allowed: false, reason: `${v4.toString()} is ${why}` };
    }
    return { allowed: true, address: v4.toString() };
  }
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d connects to a.b.c.d: judge the embedded address.
    const inner = checkAddress(v6.toIPv4Address());
    return inner.allowed ? { allowed: true, address: inner.address } : inner;
  }
  // Loopback ::1, unspecified ::, link-local, unique-local, multicast, NAT64 64:ff9b::/96 and
  // 64:ff9b:1::/48, IPv4-compatible ::a.b.c.d, discard 100::/64 … all lie outside 2000::/3.
  if (!v6.match(GLOBAL_UNICAST, 3)) {
    return { allowed: false, reason: `${v6.toString()} is not global unicast (${v6.range()})` };
  }
  for (const [range, bits, why] of parsedV6) {
    if (v6.match(range, bits)) return { allowed: false, reason: `${v6.toString()} is ${why}` };
  }
  return { allowed: true, address: v6.toString() };
}

/** Checks an address given as text (as a resolver returns it); unparsable text is refused. */
export function checkAddressText(text: string): AddressVerdict {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return { allowed: false, reason: `${text} is not an IP address` };
  return checkAddress(ipaddr.parse(bare));
}

const NUMERIC_PART = /^(0x[0-9a-f]*|[0-9]+)$/i;

/**
 * Parses an IPv4 literal the way inet_aton (and the WHATWG URL parser) do: one to four parts, each
 * decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes. So `2130706433`,
 * `0x7f.1`, `0177.0.0.1` and `127.1` are all 127.0.0.1. Returns null when the host is not numeric,
 * and throws when it is numeric but out of range (such a host must not fall through to DNS).
 */
export function parseIPv4Literal(host: string): ipaddr.IPv4 | null {
  const trimmed = host.endsWith('.') ? host.slice(0, -1) : host;
  const parts = trimmed.split('.');
  if (parts.length === 0 || parts.length > 4 || !parts.every((p) => NUMERIC_PART.test(p))) {
    // WHATWG treats a host whose LAST label is numeric as IPv4; anything else is a name.
    const last = parts.at(-1) ?? '';
    if (NUMERIC_PART.test(last) && parts.length > 1) throw new Error(`${host} is a malformed IPv4 literal`);
    return null;
  }
  const values = parts.map((p) => {
    if (/^0x/i.test(p)) return p.length === 2 ? 0 : Number.parseInt(p.slice(2), 16);
    if (p.length > 1 && p.startsWith('0')) {
      if (!/^[0-7]+$/.test(p)) throw new Error(`${host} has an invalid octal part`);
      return Number.parseInt(p, 8);
    }
    return Number(p);
  });
  const head = values.slice(0, -1);
  const last = values.at(-1) ?? 0;
  if (head.some((v) => v > 255) || last >= 256 ** (5 - values.length)) {
    throw new Error(`${host} is an out-of-range IPv4 literal`);
  }
  const bytes = [...head];
  for (let i = 4 - values.length; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return new ipaddr.IPv4(bytes);
}

export type HostKind = { kind: 'ip'; address: ipaddr.IPv4 | ipaddr.IPv6 } | { kind: 'name'; name: string };

/** Classifies a URL hostname (as `new URL().hostname` gives it) as an IP literal or a DNS name. */
export function classifyHost(hostname: string): HostKind {
  const host = hostname.toLowerCase();
  if (host.startsWith('[')) {
    const inner = host.slice(1, -1);
    if (!host.endsWith(']') || !ipaddr.IPv6.isValid(inner))
      throw new Error(`${hostname} is not a valid IPv6 literal`);
    return { kind: 'ip', address: ipaddr.IPv6.parse(inner) };
  }
  if (ipaddr.IPv6.isValid(host)) return { kind: 'ip', address: ipaddr.IPv6.parse(host) };
  const v4 = parseIPv4Literal(host);
  if (v4) return { kind: 'ip', address: v4 };
  if (host === '' || !/^[a-z0-9._-]+$/.test(host)) throw new Error(`${hostname} is not a valid host name`);
  return { kind: 'name', name: host.endsWith('.') ? host.slice(0, -1) : host };
}

/** Names that resolve to the machine itself whatever DNS says (RFC 6761). */
export function isLocalName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}
