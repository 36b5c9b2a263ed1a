import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { readCounters } from '../../db/rate-limiter.ts';
import type { AppEnv } from '../../http/env.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { policyOf, type RateLimitRule, rateLimiter } from '../../http/rate-limit.ts';
import { policyItem, RATE_LIMIT_POLICY_HEADER } from '../../http/rate-limit-fields.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import type { Infrastructure } from '../../infrastructure.ts';
import { BufferedCounters } from './counters.ts';
import { PostsFailure, type PostsFailureReason } from './errors.ts';
import {
  POSTS_CACHE_PREFIX,
  POSTS_COUNTER_FLUSH_MS,
  POSTS_COUNTERS,
  POSTS_MEMO_MAX_ENTRIES,
  POSTS_MEMO_MS,
  POSTS_UPSTREAM_RATE,
  ROUTE_ALIASES,
  ROUTE_PARAMS,
} from './limits.ts';
import { FreshMemo } from './memo.ts';
import {
  type CachedPosts,
  type ProxyRequest,
  type ProxyResult,
  proxyGet,
  type UpstreamOutcome,
} from './proxy.ts';
import { CachePurged, CacheStatus, postsQuery, WordPressJson } from './schemas.ts';
import { SingleFlight } from './single-flight.ts';

const FAILURE_CODES: Record<PostsFailureReason, ErrorCode> = {
  not_configured: 'NOT_CONFIGURED',
  invalid_query: 'VALIDATION_ERROR',
  not_found: 'NOT_FOUND',
  upstream_failed: 'EXTERNAL_SERVICE_ERROR',
};

function toApiError(error: unknown): unknown {
  if (!(error instanceof PostsFailure)) return error;
  return new ApiError(FAILURE_CODES[error.reason], error.message);
}

const tags = ['Posts'];
/** What a proxied answer says besides the body: where it came from and WordPress's pagination. */
const POSTS_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'X-Cache': {
    description:
      '`HIT` (from the cache), `MISS` (fetched and cached), `BYPASS` (`cache=false`), or `STALE` (an expired copy, WordPress failing).',
    schema: { type: 'string' as const, enum: ['HIT', 'MISS', 'BYPASS', 'STALE'], example: 'HIT' },
  },
  'X-WP-Total': {
    description: 'WordPress’s count of matching items, when it sent one (lists).',
    schema: { type: 'string' as const, example: '42' },
  },
  'X-WP-TotalPages': {
    description: 'WordPress’s count of pages at this `per_page`, when it sent one (lists).',
    schema: { type: 'string' as const, example: '5' },
  },
};

const jsonOk = (description: string) => ({
  200: {
    description,
    headers: POSTS_HEADERS,
    content: { 'application/json': { schema: WordPressJson } },
  },
  ...errorResponses(400, 404, 429, 502, 503),
});

interface ProxyRouteOptions {
  operationId: string;
  path: string;
  summary: string;
  /** The query parameters passed through to WordPress. */
  names: readonly string[];
  required?: string[];
  params?: z.ZodObject;
  /** Other names a parameter may be given by (`q` for `search`). */
  aliases?: readonly (readonly [string, string])[];
}

const proxyRoute = ({
  operationId,
  path,
  summary,
  names,
  required = [],
  params,
  aliases = [],
}: ProxyRouteOptions) =>
  createRoute({
    method: 'get',
    path,
    operationId,
    tags,
    security: [],
    summary,
    description:
      'Proxied to WORDPRESS_API_URL and cached under `posts_cache:` for POSTS_CACHE_TTL_SECONDS. Only the ' +
      'listed query parameters are sent on (and make the cache key); any other is ignored, as WordPress ' +
      'ignores what it does not know (a cache-buster such as `_=…` cannot bust the cache). When WordPress fails (including a 403 ' +
      'bot challenge) an expired copy is served if one exists (`X-Cache: STALE`), else 502. Requests that go ' +
      `to WordPress (misses and \`cache=false\`; never cache hits) are limited to ${POSTS_UPSTREAM_RATE.limit} ` +
      `per client IP per ${POSTS_UPSTREAM_RATE.windowMs / 1000} s (429 RATE_LIMITED with Retry-After); identical ` +
      'misses in progress on one instance share one upstream request.',
    request: { query: postsQuery(names, required, aliases), ...(params ? { params } : {}) },
    responses: jsonOk('The WordPress answer'),
  });

/** Each proxy route's pass-through parameters, as sets for the per-request check. */
const ALLOWED = Object.fromEntries(
  Object.entries(ROUTE_PARAMS).map(([route, names]) => [route, new Set<string>(names)]),
) as unknown as Record<keyof typeof ROUTE_PARAMS, ReadonlySet<string>>;

/** Counts a request that goes to WordPress against its client IP (the shared, database-backed limiter). */
const UPSTREAM_RULE: RateLimitRule = { name: 'posts-upstream', ...POSTS_UPSTREAM_RATE };
const upstreamRate = rateLimiter(UPSTREAM_RULE);
/**
 * Every proxied answer names the policy; `RateLimit` (what is left) comes only with an answer that
 * went to WordPress: a cache hit never touches the limiter, so it does not know.
 */
const UPSTREAM_POLICY = policyItem(policyOf(UPSTREAM_RULE, POSTS_UPSTREAM_RATE.limit));

const IdParam = z.object({ id: z.string().openapi({ description: 'Numeric id.', example: '42' }) });

const listRoute = proxyRoute({
  operationId: 'listPosts',
  path: '/api/posts',
  summary: 'List posts (filter, paginate, search)',
  names: ROUTE_PARAMS.list,
  aliases: ROUTE_ALIASES.list,
});
const searchRoute = proxyRoute({
  operationId: 'searchPosts',
  path: '/api/posts/search',
  summary: 'Search posts',
  names: ROUTE_PARAMS.search,
  required: ['search'],
  aliases: ROUTE_ALIASES.search,
});
const tagsRoute = proxyRoute({
  operationId: 'listPostTags',
  path: '/api/posts/tags',
  summary: 'Tags with counts',
  names: ROUTE_PARAMS.tags,
});
const categoriesRoute = proxyRoute({
  operationId: 'listPostCategories',
  path: '/api/posts/categories',
  summary: 'Categories',
  names: ROUTE_PARAMS.categories,
});
const authorSearchRoute = proxyRoute({
  operationId: 'searchPostAuthors',
  path: '/api/posts/author',
  summary: 'Search authors',
  names: ROUTE_PARAMS.authorSearch,
  required: ['search'],
  aliases: ROUTE_ALIASES.authorSearch,
});
const authorRoute = proxyRoute({
  operationId: 'getPostAuthor',
  path: '/api/posts/author/{id}',
  summary: 'Author details',
  names: ROUTE_PARAMS.author,
  params: IdParam,
});
const postRoute = proxyRoute({
  operationId: 'getPost',
  path: '/api/posts/{id}',
  summary: 'One post with full content',
  names: ROUTE_PARAMS.post,
  params: IdParam,
});

const statusRoute = createRoute({
  method: 'get',
  path: '/api/posts/cache/status',
  operationId: 'getPostsCacheStatus',
  tags,
  security: [],
  summary: 'Posts cache health and size',
  description: 'Hit and miss counts are shared by every instance (summed in memory, written each second).',
  responses: {
    200: { description: 'Cache status', content: { 'application/json': { schema: CacheStatus } } },
  },
});

const purgeDescription =
  'Deletes every cache entry whose key starts with `posts_cache:` and reports how many. Requires `X-Cache-Api-Key` ' +
  '(CACHE_API_SECRET; unset rejects every request).';
const purgeResponses = {
  200: { description: 'Purged', content: { 'application/json': { schema: CachePurged } } },
  ...errorResponses(401),
};
const guard = requireHeaderSecret('X-Cache-Api-Key', (config) => config.secrets.cache);
const security = [{ CacheApiKey: [] }];
const purgeRoute = createRoute({
  method: 'delete',
  path: '/api/posts/cache',
  operationId: 'purgePostsCache',
  tags,
  summary: 'Purge the posts cache',
  description: purgeDescription,
  middleware: [guard] as const,
  security,
  responses: purgeResponses,
});
const clearRoute = createRoute({
  method: 'post',
  path: '/api/posts/cache/clear',
  operationId: 'clearPostsCache',
  tags,
  summary: 'Purge the posts cache (same as DELETE /api/posts/cache)',
  description: purgeDescription,
  middleware: [guard] as const,
  security,
  responses: purgeResponses,
});

export function postsRoutes() {
  // One per app: the hit/miss counts waiting to be added to the shared counters, the one-second
  // copy of fresh entries (see memo.ts) and the upstream fetches in progress (see single-flight.ts).
  let counters: BufferedCounters | null = null;
  const memo = new FreshMemo<CachedPosts>(POSTS_MEMO_MS, POSTS_MEMO_MAX_ENTRIES);
  const flights = new SingleFlight<UpstreamOutcome>();
  const countersOf = (deps: Infrastructure) => {
    counters ??= new BufferedCounters(deps.db, POSTS_COUNTER_FLUSH_MS);
    return counters;
  };

  const serve = async (c: Context<AppEnv>, request: Omit<ProxyRequest, 'query'>): Promise<Response> => {
    const { deps } = c.env;
    const url = c.req.url;
    const queryStart = url.indexOf('?');
    let result: ProxyResult;
    let limitFields: Record<string, string> | null = null;
    try {
      result = await proxyGet(
        {
          wordpress: deps.wordpress,
          cache: deps.cache,
          counters: countersOf(deps),
          memo,
          flights,
          admit: async () => {
            limitFields = await upstreamRate(c);
          },
          ttlSeconds: deps.config.postsCacheTtlSeconds,
          metrics: deps.metrics,
          // The request's child logger is made only if a warning is logged.
          get logger() {
            return c.env.logger;
          },
        },
        { ...request, query: new URLSearchParams(queryStart < 0 ? '' : url.slice(queryStart + 1)) },
      );
    } catch (error) {
      throw toApiError(error);
    }
    return send(result, limitFields);
  };

  const idOf = (c: Context<AppEnv>, what: string) => {
    const id = c.req.param('id') ?? '';
    if (!/^[1-9]\d{0,18}$/.test(id))
      throw new ApiError('NOT_FOUND', `No ${what} with id ${id.slice(0, 40)}.`);
    return id;
  };

  const router = createRouter()
    .openapi(statusRoute, async (c) => {
      const deps = c.env.deps;
      await countersOf(deps).flush();
      const [stats, counts] = await Promise.all([
        deps.cache.stats(POSTS_CACHE_PREFIX),
        readCounters(deps.db, Object.values(POSTS_COUNTERS)),
      ]);
      const hits = counts[POSTS_COUNTERS.hits] ?? 0;
      const misses = counts[POSTS_COUNTERS.misses] ?? 0;
      return c.json(
        {
          success: true as const,
          configured: deps.wordpress !== null,
          ttlSeconds: deps.config.postsCacheTtlSeconds,
          entries: stats.entries,
          sizeBytes: stats.bytes,
          oldest: stats.oldest === null ? null : new Date(stats.oldest).toISOString(),
          newest: stats.newest === null ? null : new Date(stats.newest).toISOString(),
          hits,
          misses,
          staleServed: counts[POSTS_COUNTERS.stale] ?? 0,
          hitRatio: hits + misses === 0 ? null : Math.round((hits / (hits + misses)) * 1000) / 1000,
        },
        200,
      );
    })
    .openapi(purgeRoute, async (c) => {
      memo.clear();
      const purged = await c.env.deps.cache.purgePrefix(POSTS_CACHE_PREFIX);
      c.env.logger.info({ purged }, 'posts cache purged');
      return c.json({ success: true as const, purged }, 200);
    })
    .openapi(clearRoute, async (c) => {
      memo.clear();
      const purged = await c.env.deps.cache.purgePrefix(POSTS_CACHE_PREFIX);
      c.env.logger.info({ purged }, 'posts cache purged');
      return c.json({ success: true as const, purged }, 200);
    });

  // The proxy routes are documented through the registry (their query schema lists the parameters
  // each passes through) and served by plain handlers: the query is checked by `upstreamParams`
  // (unknown names → 400, required ones, length), which a schema validator would only repeat.
  router.openAPIRegistry.registerComponent('securitySchemes', 'CacheApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Cache-Api-Key',
  });
  const proxy = (
    route: ReturnType<typeof proxyRoute>,
    request: (c: Context<AppEnv>) => Omit<ProxyRequest, 'query'>,
  ) => {
    router.openAPIRegistry.registerPath(route);
    router.get(route.path.replace(/\{(\w+)\}/g, ':$1'), (c) => serve(c, request(c)));
  };
  proxy(listRoute, () => ({ resource: '/posts', allowed: ALLOWED.list, aliases: ROUTE_ALIASES.list }));
  proxy(searchRoute, () => ({
    resource: '/posts',
    allowed: ALLOWED.search,
    aliases: ROUTE_ALIASES.search,
    required: ['search'],
  }));
  proxy(tagsRoute, () => ({ resource: '/tags', allowed: ALLOWED.tags }));
  proxy(categoriesRoute, () => ({ resource: '/categories', allowed: ALLOWED.categories }));
  proxy(authorSearchRoute, () => ({
    resource: '/users',
    allowed: ALLOWED.authorSearch,
    aliases: ROUTE_ALIASES.authorSearch,
    required: ['search'],
  }));
  proxy(authorRoute, (c) => {
    const id = idOf(c, 'author');
    return { resource: `/users/${id}`, allowed: ALLOWED.author, notFound: `No author with id ${id}.` };
  });
  proxy(postRoute, (c) => {
    const id = idOf(c, 'post');
    return { resource: `/posts/${id}`, allowed: ALLOWED.post, notFound: `No post with id ${id}.` };
  });
  return router;
}

/** The WordPress JSON text is sent as-is (no parse and re-serialise). */
function send(result: ProxyResult, limitFields: Record<string, string> | null): Response {
  // A plain Response with plain-object headers: @hono/node-server hands those to Node as they are
  // (headers set through the context would go through a WHATWG Headers object first).
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-cache': result.cache,
    [RATE_LIMIT_POLICY_HEADER]: UPSTREAM_POLICY,
  };
  if (limitFields) Object.assign(headers, limitFields);
  if (result.total !== null) headers['x-wp-total'] = result.total;
  if (result.totalPages !== null) headers['x-wp-totalpages'] = result.totalPages;
  return new Response(result.body, { status: 200, headers });
}
