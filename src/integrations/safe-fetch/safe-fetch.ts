import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { checkAddress, checkAddressText, classifyHost, isLocalName } from './address.ts';

/**
 * The ONLY way this service fetches a URL a visitor gave it. Each hop: the URL is checked (http/https,
 * no credentials, port 80/443), the host is resolved ONCE, every resolved address must be public
 * unicast, and the connection is pinned to the checked address through the socket's `lookup` (so a
 * DNS answer that changes between check and connect — rebinding — cannot redirect it). Redirects are
 * followed by hand and each one is checked again. One deadline covers the whole exchange and the body
 * is cut off at a size cap. Hosts named in FETCH_ALLOW_HOSTS skip the address and port rules (tests,
 * intranets) but are still resolved once and pinned.
 */

export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  connectTimeoutMs: 5_000,
  userAgent: 'AgencySiteAnalyzer/1.0 (+https://github.com/; page checks requested by a visitor)',
} as const;

/** Ports a URL may name (besides allow-listed hosts); an empty port is the scheme's default. */
export const DEFAULT_ALLOWED_PORTS: readonly number[] = [80, 443];

export type SafeFetchReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'port'
  | 'blocked_address'
  | 'dns'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'network';

/** Reasons that are the caller's fault (the URL is not acceptable) rather than an upstream failure. */
export const POLICY_REASONS: ReadonlySet<SafeFetchReason> = new Set([
  'invalid_url',
  'scheme',
  'credentials',
  'port',
  'blocked_address',
]);

export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
  readonly reason: SafeFetchReason;
  constructor(reason: SafeFetchReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
  get isPolicy(): boolean {
    return POLICY_REASONS.has(this.reason);
  }
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SafeFetchConfig {
  allowHosts?: readonly string[];
  /** DNS resolution; replaceable so tests can make a name resolve to a chosen address. */
  resolve?: Resolver;
  userAgent?: string;
  /** Ports allowed for hosts not on the allow list; default 80 and 443. */
  ports?: readonly number[];
}

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface RedirectHop {
  url: string;
  status: number;
}

export interface SafeFetchResponse {
  /** The URL asked for, normalised. */
  requestedUrl: string;
  /** The URL that finally answered (after redirects). */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Each redirect followed, in order: the URL that answered with a redirect and its status. */
  redirects: RedirectHop[];
}

/** A URL that passed every check, with the address its connection must use. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
  /** True when the host is on FETCH_ALLOW_HOSTS (address and port rules skipped). */
  allowListed: boolean;
}

/**
 * Parses and normalises a visitor-given URL: trims it, requires http/https, refuses credentials, and
 * lets the WHATWG parser lower-case the host, drop the default port and canonicalise IP literals; the
 * fragment is removed. Throws SafeFetchError (a policy reason) when the URL is not acceptable.
 */
export function normalizeUrl(input: string): URL {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SafeFetchError('invalid_url', 'The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('scheme', `Only http and https URLs can be analysed (got ${url.protocol}).`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('credentials', 'URLs with a user name or password are not accepted.');
  }
  if (url.hostname === '') throw new SafeFetchError('invalid_url', 'The URL has no host.');
  url.hash = '';
  return url;
}

function hostKey(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

export class SafeFetcher {
  readonly #allowHosts: Set<string>;
  readonly #resolve: Resolver;
  readonly #userAgent: string;
  readonly #ports: Set<string>;

  constructor(config: SafeFetchConfig = {}) {
    this.#ports = new Set(['', ...(config.ports ?? DEFAULT_ALLOWED_PORTS).map(String)]);
    this.#allowHosts = new Set((config.allowHosts ?? []).map(hostKey));
    this.#resolve = config.resolve ?? defaultResolver;
    this.#userAgent = config.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent;
  }

  isAllowListed(url: URL): boolean {
    return this.#allowHosts.has(hostKey(url.hostname));
  }

  /**
   * Checks one URL and resolves its host once: the scheme, credentials, port and every address the
   * host resolves to. The returned address is the one a connection must be pinned to.
   */
  /**
   * The checks that need no DNS: scheme, credentials, port, IP literals and local names. Returns the
   * target when the host is an IP literal, or the name still to resolve.
   */
  checkStatic(input: string | URL): {
    url: URL;
    allowListed: boolean;
    target: CheckedTarget | null;
    name: string | null;
  } {
    const url = typeof input === 'string' ? normalizeUrl(input) : normalizeUrl(input.href);
    const allowListed = this.isAllowListed(url);
    if (!allowListed && !this.#ports.has(url.port)) {
      throw new SafeFetchError(
        'port',
        `Port ${url.port} is not allowed; only the standard ports 80 and 443 are.`,
      );
    }
    let host: ReturnType<typeof classifyHost>;
    try {
      host = classifyHost(url.hostname);
    } catch (error) {
      throw new SafeFetchError('invalid_url', (error as Error).message);
    }
    if (host.kind === 'ip') {
      const verdict = checkAddress(host.address);
      if (!verdict.allowed && !allowListed)
        throw new SafeFetchError('blocked_address', blockedMessage(verdict.reason));
      const address = verdict.allowed ? verdict.address : host.address.toString();
      const family = familyOf(address);
      return { url, allowListed, target: { url, address, family, allowListed }, name: null };
    }
    if (!allowListed && isLocalName(host.name)) {
      throw new SafeFetchError('blocked_address', blockedMessage(`${host.name} is a local name`));
    }
    return { url, allowListed, target: null, name: host.name };
  }

  /**
   * Checks one URL and resolves its host once: the scheme, credentials, port and every address the
   * host resolves to. The returned address is the one a connection must be pinned to.
   */
  async check(input: string | URL, signal?: AbortSignal): Promise<CheckedTarget> {
    const { url, allowListed, target, name } = this.checkStatic(input);
    if (target) return target;
    const host = { name: name ?? '' };
    let addresses: LookupAddress[];
    try {
      addresses = await withSignal(this.#resolve(host.name), signal);
    } catch (error) {
      if (signal?.aborted)
        throw new SafeFetchError('timeout', 'The page did not answer in time.', { cause: error });
      throw new SafeFetchError('dns', `The host ${host.name} could not be resolved.`, { cause: error });
    }
    if (addresses.length === 0) throw new SafeFetchError('dns', `The host ${host.name} has no address.`);
    // Every answer must be public: a name that mixes a public and a private address is refused outright.
    const verdicts = addresses.map((a) => checkAddressText(a.address));
    const refused = verdicts.find((v) => !v.allowed);
    if (refused && !refused.allowed && !allowListed) {
      throw new SafeFetchError('blocked_address', blockedMessage(refused.reason));
    }
    const first = addresses[0]!;
    const verdict = verdicts[0]!;
    // An IPv4-mapped answer (`::ffff:a.b.c.d`) is pinned as the IPv4 address it was judged by, so the
    // family is that address's, not the answer's: a socket given an IPv4 address as family 6 fails.
    const address = verdict.allowed ? verdict.address : first.address;
    return { url, address, family: familyOf(address), allowListed };
  }

  /** Fetches a visitor-given URL under every rule above. */
  async fetch(input: string, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
    const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
    const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
    const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
    const requested = normalizeUrl(input);
    const redirects: RedirectHop[] = [];
    let current = requested;
    try {
      for (;;) {
        const target = await this.check(current, signal);
        const hop = await this.#hop(target, options, signal, timeoutMs, maxBytes);
        const location = hop.headers.location;
        if (isRedirect(hop.status) && location) {
          if (redirects.length >= maxRedirects) {
            throw new SafeFetchError('too_many_redirects', `More than ${maxRedirects} redirects.`);
          }
          redirects.push({ url: current.href, status: hop.status });
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new SafeFetchError('invalid_url', 'A redirect pointed to an invalid URL.');
          }
          current = normalizeUrl(next.href);
          continue;
        }
        return {
          requestedUrl: requested.href,
          url: current.href,
          status: hop.status,
          headers: hop.headers,
          body: hop.body,
          redirects,
        };
      }
    } catch (error) {
      if (error instanceof SafeFetchError) throw error;
      if (signal.aborted) {
        throw new SafeFetchError(
          'timeout',
          `The page did not answer within ${Math.round(timeoutMs / 1000)} s.`,
          { cause: error },
        );
      }
      throw new SafeFetchError('network', 'The page could not be fetched (connection failed).', {
        cause: error,
      });
    }
  }

  async #hop(
    target: CheckedTarget,
    options: SafeFetchOptions,
    signal: AbortSignal,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    // Loaded on first use: the undici package costs ≈28 MB of memory at start-up otherwise.
    const { Agent, request } = await import('undici');
    const agent = new Agent({
      connect: {
        timeout: Math.min(SAFE_FETCH_DEFAULTS.connectTimeoutMs, timeoutMs),
        // The pin: whatever name the socket asks for, it connects to the address checked above.
        lookup: pinnedLookup(target.address, target.family),
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connections: 1,
      pipelining: 0,
    });
    try {
      const response = await request(target.url, {
        dispatcher: agent,
        method: options.method ?? 'GET',
        signal,
        headers: {
          'user-agent': this.#userAgent,
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
          ...options.headers,
        },
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (isRedirect(response.statusCode) || options.method === 'HEAD') {
        discard(response.body);
        return { status: response.statusCode, headers, body: Buffer.alloc(0) };
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(response.body);
        throw new SafeFetchError('too_large', `The page is larger than ${formatBytes(maxBytes)}.`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          discard(response.body);
          throw new SafeFetchError('too_large', `The page is larger than ${formatBytes(maxBytes)}.`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers, body: Buffer.concat(chunks) };
    } finally {
      void agent.destroy().catch(() => {});
    }
  }
}

function familyOf(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

/** A socket `lookup` that answers every name with the one address checked beforehand. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  const lookup = (_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return lookup as unknown as LookupFunction;
}

/** Drops a body we will not read; destroying it emits an abort error nobody needs. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function blockedMessage(reason: string): string {
  return `The URL leads to an address that cannot be analysed (${reason}).`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : `${Math.round(bytes / 1024)} kB`;
}

function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
