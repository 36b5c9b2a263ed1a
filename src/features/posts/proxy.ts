import type { Logger } from 'pino';
import type { CacheStore } from '../../db/cache-store.ts';
import {
  type WordPressClient,
  type WordPressResponse,
  WordPressUnavailableError,
} from '../../integrations/wordpress/wordpress-client.ts';
import type { BufferedCounters } from './counters.ts';
import { PostsFailure } from './errors.ts';
import {
  CACHE_PARAM,
  POSTS_CACHE_PREFIX,
  POSTS_COUNTERS,
  POSTS_MAX_QUERY_CHARS,
  POSTS_STALE_WINDOW_MS,
} from './limits.ts';
import type { FreshMemo } from './memo.ts';
import type { SingleFlight } from './single-flight.ts';

export type CacheOutcome = 'HIT' | 'MISS' | 'STALE' | 'BYPASS';

export interface CachedPosts {
  /** The upstream JSON body, as text (sent on unchanged). */
  body: string;
  total: string | null;
  totalPages: string | null;
}

export interface ProxyResult extends CachedPosts {
  cache: CacheOutcome;
}

export interface ProxyContext {
  wordpress: WordPressClient | null;
  cache: CacheStore;
  counters: BufferedCounters;
  memo: FreshMemo<CachedPosts>;
  /** This instance's upstream fetches in progress, by cache key (one per app). */
  flights: SingleFlight<UpstreamOutcome>;
  /**
   * Counts a request that is about to go to WordPress against its client's limit, and throws over
   * it (the route's own error, passed through). Never called for a cache hit.
   */
  admit: () => Promise<void>;
  ttlSeconds: number;
  logger: Logger;
  /** Where a failed call to WordPress is counted (`outbound_errors_total{service="wordpress"}`). */
  metrics?: { recordOutboundError(service: string): void };
}

export interface ProxyRequest {
  /** The upstream path under WORDPRESS_API_URL, e.g. `/posts` or `/users/3`. */
  resource: string;
  /** The raw query of the incoming request. */
  query: URLSearchParams;
  /** The parameters this route passes through. */
  allowed: ReadonlySet<string>;
  /**
   * Other names read as a passed-through parameter (`q` as `search`), in order of preference; the
   * parameter itself, when given, wins over all of them.
   */
  aliases?: readonly (readonly [alias: string, name: string])[];
  /** Parameters this route requires (e.g. `search`). */
  required?: readonly string[];
  /** The message when WordPress has no such item (single-item routes). */
  notFound?: string;
}

/**
 * What of the query goes to WordPress: the route's listed parameters (a name may carry WordPress's
 * array suffix `[]`: `categories[]=1&categories[]=2`) and its aliases read as the parameter they stand
 * for. Anything else is ignored, as WordPress itself ignores what it does not know: a cache-buster
 * (`_=1732612345678`) or a campaign tag (`utm_source`) is neither sent upstream nor part of the cache
 * key, so it cannot bust the cache. Values are WordPress's to judge (its 400 is passed on).
 */
export function upstreamParams(request: ProxyRequest): { params: URLSearchParams; bypass: boolean } {
  const { allowed, aliases = [] } = request;
  const params: [string, string][] = [];
  const aliased = new Map<string, [string, string][]>();
  let bypass = false;
  let chars = 0;
  for (const [name, value] of request.query) {
    if (name === CACHE_PARAM) {
      bypass = value.toLowerCase() === 'false' || value === '0';
      continue;
    }
    if (allowed.has(name.endsWith('[]') ? name.slice(0, -2) : name)) {
      chars += name.length + value.length + 2;
      params.push([name, value]);
    } else if (aliases.some(([alias]) => alias === name)) {
      const values = aliased.get(name) ?? [];
      values.push([name, value]);
      aliased.set(name, values);
    }
  }
  for (const [alias, target] of aliases) {
    const values = aliased.get(alias);
    if (!values || params.some(([name]) => name === target || name === `${target}[]`)) continue;
    for (const [, value] of values) {
      chars += target.length + value.length + 2;
      params.push([target, value]);
    }
  }
  if (chars > POSTS_MAX_QUERY_CHARS) {
    throw new PostsFailure(
      'invalid_query',
      `The query parameters sent on to WordPress are longer than ${POSTS_MAX_QUERY_CHARS} characters.`,
    );
  }
  for (const name of request.required ?? []) {
    if (!params.some(([n, v]) => n === name && v.trim() !== '')) {
      throw new PostsFailure('invalid_query', `The query parameter ${name} is required.`);
    }
  }
  // Sorted by name, so the same question in another order shares one cache entry. The sort is stable
  // and values are not compared: the values of one name keep the caller's order, which WordPress
  // reads (`include[]` under `orderby=include`; the last `page` wins), so another order is another
  // question. `name` and `name[]` are one PHP variable, so they sort as one name.
  const base = (name: string) => (name.endsWith('[]') ? name.slice(0, -2) : name);
  params.sort(([a], [b]) => (base(a) < base(b) ? -1 : base(a) > base(b) ? 1 : 0));
  return { params: new URLSearchParams(params), bypass };
}

export function cacheKey(resource: string, params: URLSearchParams): string {
  const query = params.toString();
  return `${POSTS_CACHE_PREFIX}${resource}${query ? `?${query}` : ''}`;
}

/** A Cloudflare (or similar) bot challenge instead of the API's answer. */
function isBotChallenge(response: WordPressResponse): boolean {
  return (
    response.mitigated?.toLowerCase() === 'challenge' ||
    (response.status === 403 && /text\/html/i.test(response.contentType))
  );
}

const CHALLENGE_REMEDY =
  'the WordPress host answered with a bot challenge (403); add a zone rule (e.g. a Cloudflare WAF skip or ' +
  "configuration rule) that skips the challenge for this service's requests to the wp-json API — no code change is needed";

/** What one upstream flight produced, shared by every request that joined it. */
export interface UpstreamOutcome {
  value: CachedPosts;
  /** `stale`: WordPress failed and the expired copy is served instead. */
  stale: boolean;
}

/**
 * Serves one proxied GET: fresh cache, else upstream (cached on success), else a stale copy, else an
 * error. Only the upstream path is rate limited (`admit`); a cache hit never touches the limiter.
 *
 * Upstream fetches are single-flight per cache key on this instance: a miss joins the fetch in
 * progress for its key (its answer is at least as new as a cached copy would have been). A bypass
 * (`cache=false`) never joins one: a fetch already in progress started before the bypass was asked, so
 * it may predate the change the caller wants to see (an editor checking a post just published). It
 * starts its own fetch, which later misses join; the older fetch then no longer writes the cache, so
 * it cannot overwrite the newer answer.
 */
export async function proxyGet(ctx: ProxyContext, request: ProxyRequest): Promise<ProxyResult> {
  if (!ctx.wordpress) {
    throw new PostsFailure(
      'not_configured',
      'The posts service is not configured (WORDPRESS_API_URL is unset).',
    );
  }
  const { params, bypass } = upstreamParams(request);
  const key = cacheKey(request.resource, params);

  let flight: Promise<UpstreamOutcome> | undefined;
  if (!bypass) {
    let entry = ctx.memo.get(key);
    if (!entry) {
      entry = await ctx.cache.get<CachedPosts>(key);
      if (entry) ctx.memo.set(key, entry);
    }
    if (entry?.fresh) {
      ctx.counters.add(POSTS_COUNTERS.hits);
      return { ...entry.value, cache: 'HIT' };
    }
    // Joining a fetch in progress sends nothing upstream, so it is not counted against the limit.
    flight = ctx.flights.current(key);
  }
  if (!flight) {
    await ctx.admit();
    const work = (owns: () => boolean) => fetchUpstream(ctx, request, params, key, owns);
    flight = bypass ? ctx.flights.start(key, work) : ctx.flights.join(key, work);
  }
  ctx.counters.add(POSTS_COUNTERS.misses);
  const outcome = await flight;
  if (outcome.stale) {
    ctx.counters.add(POSTS_COUNTERS.stale);
    return { ...outcome.value, cache: 'STALE' };
  }
  return { ...outcome.value, cache: bypass ? 'BYPASS' : 'MISS' };
}

/** One request to WordPress and what to answer with; run once per flight (see proxyGet). */
async function fetchUpstream(
  ctx: ProxyContext,
  request: ProxyRequest,
  params: URLSearchParams,
  key: string,
  owns: () => boolean,
): Promise<UpstreamOutcome> {
  const wordpress = ctx.wordpress as WordPressClient;
  // WordPress failed (unreachable, timed out, an error, a challenge, not JSON): counted, logged, and
  // answered from the expired copy when there is one.
  const staleOr = async (error: PostsFailure, log: () => void): Promise<UpstreamOutcome> => {
    ctx.metrics?.recordOutboundError('wordpress');
    log();
    const stale = await ctx.cache.get<CachedPosts>(key);
    if (stale) return { value: stale.value, stale: true };
    throw error;
  };
  const upstreamFailed = new PostsFailure(
    'upstream_failed',
    'The posts service is unavailable right now; please try again shortly.',
  );

  let response: WordPressResponse;
  try {
    response = await wordpress.get(request.resource, params);
  } catch (error) {
    if (!(error instanceof WordPressUnavailableError)) throw error;
    return staleOr(upstreamFailed, () =>
      ctx.logger.warn({ err: error, resource: request.resource }, 'wordpress request failed'),
    );
  }

  if (isBotChallenge(response)) {
    // Never cached: the challenge page is not content.
    return staleOr(
      new PostsFailure(
        'upstream_failed',
        'The posts service refused the request (bot challenge); please try again later.',
      ),
      () =>
        ctx.logger.warn(
          { resource: request.resource, status: response.status, remedy: CHALLENGE_REMEDY },
          `wordpress bot challenge: ${CHALLENGE_REMEDY}`,
        ),
    );
  }
  // An item the public may not read (a draft, a post taken down, a user with no published post) is
  // 401 from WordPress to a visitor, a deleted one 404 or 410: all not found here, and the copy cached
  // before is dropped so a later WordPress failure cannot serve it as stale.
  if (request.notFound && [401, 404, 410].includes(response.status)) {
    if (owns()) await ctx.cache.delete(key);
    throw new PostsFailure('not_found', request.notFound);
  }
  if (response.status === 400) {
    throw new PostsFailure(
      'invalid_query',
      `The posts service rejected the query: ${upstreamMessage(response.body)}`,
    );
  }
  if (response.status < 200 || response.status >= 300 || !isJson(response)) {
    return staleOr(upstreamFailed, () =>
      ctx.logger.warn(
        { resource: request.resource, status: response.status },
        'wordpress answered with an error',
      ),
    );
  }

  const value: CachedPosts = { body: response.body, total: response.total, totalPages: response.totalPages };
  // A bypass that started after this fetch owns the key now: its answer is the newer one.
  if (owns()) await ctx.cache.set(key, value, ctx.ttlSeconds, POSTS_STALE_WINDOW_MS);
  return { value, stale: false };
}

function isJson(response: WordPressResponse): boolean {
  if (!/json/i.test(response.contentType)) return false;
  try {
    JSON.parse(response.body);
    return true;
  } catch {
    return false;
  }
}

/**
 * WordPress's error message (`{code, message}`), cut short and stripped of markup. A tag is matched
 * as `<[^<>]*>`: with `[^>]*` a long run of `<` without a `>` made the stripping quadratic.
 */
function upstreamMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message.replace(/<[^<>]*>/g, '').slice(0, 200);
  } catch {}
  return 'invalid parameter.';
}
