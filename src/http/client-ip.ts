import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';
import { PRINTED_IPV4 } from '../text/ipv4.ts';

export interface ClientOrigin {
  /** The visitor's IP as this service trusts it, or null when it cannot be known. */
  ip: string | null;
  /** ISO country code from a trusted proxy header (Cloudflare), else null; see integrations/geoip. */
  country: string | null;
}

const IPV4_MAPPED_PREFIX = '::ffff:';

/** The address in ipaddr.js's printed form (IPv4-mapped IPv6 as IPv4), or null when it is not one. */
export function normalizeIp(value: string | undefined | null): string | null {
  if (!value) return null;
  // The common cases (a socket's own address, a proxy's header) without a full parse.
  if (PRINTED_IPV4.test(value)) return value;
  if (value.startsWith(IPV4_MAPPED_PREFIX) && PRINTED_IPV4.test(value.slice(IPV4_MAPPED_PREFIX.length))) {
    return value.slice(IPV4_MAPPED_PREFIX.length);
  }
  const trimmed = value.trim();
  if (!ipaddr.isValid(trimmed)) return null;
  const parsed = ipaddr.parse(trimmed);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  }
  return parsed.toString();
}

/**
 * How much of an IPv6 address names one client for rate limits and quotas: a home or an office is
 * given a whole /64 (often a /56) and can use any address in it, so counting per address would let
 * one client step around every per-IP limit. The same choice as express-rate-limit's `ipv6Subnet`.
 */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The key a client's per-IP limits and quota are counted under: an IPv4 address as is, an IPv6
 * address by its /64 (`2001:db8:1:2::/64`). `ip` as clientOrigin returns it (normalised).
 */
export function limitKey(ip: string | null): string | null {
  if (ip === null || !ip.includes(':')) return ip;
  try {
    const parts = ipaddr.IPv6.parse(ip).parts.slice(0, IPV6_CLIENT_PREFIX / 16);
    return `${parts.map((part) => part.toString(16)).join(':')}::/${IPV6_CLIENT_PREFIX}`;
  } catch {
    return ip;
  }
}

function socketIp(c: Context): string | null {
  try {
    return normalizeIp(getConnInfo(c).remote.address);
  } catch {
    // app.request() in tests has no socket.
    return null;
  }
}

/**
 * The one place that decides who the client is, per TRUST_PROXY:
 * - `none`: the socket's peer address;
 * - `cloudflare`: `CF-Connecting-IP` and `CF-IPCountry`;
 * - `xff`: the right-most `X-Forwarded-For` entry, i.e. the address our own proxy saw (entries to its
 *   left are written by the client and cannot be trusted).
 */
export function clientOrigin(c: Context, trustProxy: Config['trustProxy']): ClientOrigin {
  if (trustProxy === 'cloudflare') {
    const country = c.req.header('cf-ipcountry')?.trim().toUpperCase();
    return {
      ip: normalizeIp(c.req.header('cf-connecting-ip')) ?? socketIp(c),
      country: country && /^[A-Z]{2}$/.test(country) && country !== 'XX' ? country : null,
    };
  }
  if (trustProxy === 'xff') {
    const entries = (c.req.header('x-forwarded-for') ?? '').split(',');
    return { ip: normalizeIp(entries[entries.length - 1]) ?? socketIp(c), country: null };
  }
  return { ip: socketIp(c), country: null };
}
