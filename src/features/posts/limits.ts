/** Limits and names of the posts proxy, shared by the schemas, the logic and the tests. */

export const POSTS_CACHE_PREFIX = 'posts_cache:';
/** Longest query accepted, counting the parameters sent on to WordPress (the cache key is built from them). */
export const POSTS_MAX_QUERY_CHARS = 2048;
/** How long a stale copy is kept for stale-if-error after its TTL has passed. */
export const POSTS_STALE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Requests per client IP (an IPv6 client by its /64) that may go to WordPress — cache misses and
 * `cache=false` bypasses — per window, counted in the shared database so the limit holds across
 * instances. Cache hits, and misses that join a fetch already in progress, are never counted. One a
 * second on average is far above what a reader paging or searching produces, and keeps one client
 * from making this service hammer WordPress with `cache=false` or endless unique queries.
 */
export const POSTS_UPSTREAM_RATE = { limit: 60, windowMs: 60_000 } as const;
/** Counter flush interval: hit and miss counts are summed in memory and written this often. */
export const POSTS_COUNTER_FLUSH_MS = 1000;

export const POSTS_COUNTERS = {
  hits: 'posts_cache_hits',
  misses: 'posts_cache_misses',
  stale: 'posts_cache_stale_served',
} as const;

/** `/api/posts` query parameters passed through to WordPress (backend-api.md, Posts). */
export const LIST_PARAMS = [
  'page',
  'per_page',
  'offset',
  'search',
  'author',
  'author_exclude',
  'before',
  'after',
  'exclude',
  'include',
  'order',
  'orderby',
  'slug',
  'status',
  'categories',
  'categories_exclude',
  'tags',
  'tags_exclude',
  'sticky',
  'lang',
  'tag',
  'category',
] as const;

/** WordPress's response-shaping parameters; part of the cache key. */
export const SHAPE_PARAMS = ['_embed', '_fields'] as const;

/** The proxy's own parameter: `cache=false` skips the cached copy. Never sent upstream. */
export const CACHE_PARAM = 'cache';

export const ROUTE_PARAMS = {
  list: [...LIST_PARAMS, ...SHAPE_PARAMS],
  search: [...LIST_PARAMS, ...SHAPE_PARAMS],
  tags: ['per_page', 'orderby', 'order', '_fields'],
  categories: ['page', 'per_page', 'orderby', 'order', 'lang', '_fields'],
  authorSearch: ['search', 'page', 'per_page', '_fields'],
  author: ['_fields'],
  post: ['_embed', '_fields', 'lang'],
} as const satisfies Record<string, readonly string[]>;
/**
 * Names read as a route's parameter, in order of preference (`[alias, parameter]`): front ends write
 * `q` for a search, and `name` for an author's. The parameter itself, when given, wins.
 */
export const ROUTE_ALIASES = {
  list: [['q', 'search']],
  search: [['q', 'search']],
  authorSearch: [
    ['q', 'search'],
    ['name', 'search'],
  ],
} as const satisfies Partial<Record<keyof typeof ROUTE_PARAMS, readonly (readonly [string, string])[]>>;
/** How long this process reuses a fresh entry it read before asking the shared cache again. */
export const POSTS_MEMO_MS = 1000;
export const POSTS_MEMO_MAX_ENTRIES = 500;
