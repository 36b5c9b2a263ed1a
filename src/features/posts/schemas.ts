import { z } from '@hono/zod-openapi';
import { CACHE_PARAM } from './limits.ts';

const DESCRIPTIONS: Record<string, string> = {
  page: 'Page of the collection (WordPress `page`).',
  per_page: 'Items per page, 1–100 (WordPress `per_page`).',
  offset: 'Items to skip.',
  search: 'Full-text search term.',
  author: 'Author id(s), comma-separated.',
  author_exclude: 'Author id(s) to exclude.',
  before: 'Published before this ISO 8601 date.',
  after: 'Published after this ISO 8601 date.',
  exclude: 'Post id(s) to exclude.',
  include: 'Only these post id(s).',
  order: '`asc` or `desc`.',
  orderby: 'Sort field (`date`, `title`, `id`, `relevance`, `count`, `name`, …).',
  slug: 'Post slug(s).',
  status: 'Post status (WordPress answers 400 to non-public statuses without credentials).',
  categories: 'Category id(s).',
  categories_exclude: 'Category id(s) to exclude.',
  tags: 'Tag id(s).',
  tags_exclude: 'Tag id(s) to exclude.',
  sticky: '`true` or `false`.',
  lang: 'Language code (multilingual plugins).',
  tag: 'Tag slug (passed through as-is).',
  category: 'Category slug (passed through as-is).',
  _embed: 'Embed linked resources (author, featured media, terms). Part of the cache key.',
  _fields: 'Comma list of fields to return. Part of the cache key.',
  [CACHE_PARAM]: '`false` skips the cached copy and asks WordPress (the fresh answer is cached).',
};

const value = z.union([z.string(), z.array(z.string())]).optional();

/**
 * The documented query schema of a posts route: every parameter it passes through, its aliases, and
 * `cache`. Other parameters are ignored.
 */
export function postsQuery(
  names: readonly string[],
  required: readonly string[] = [],
  aliases: readonly (readonly [string, string])[] = [],
) {
  const shape: Record<string, typeof value> = {};
  const aliasesOf = (name: string) =>
    aliases.filter(([, target]) => target === name).map(([a]) => `\`${a}\``);
  for (const name of [...names, CACHE_PARAM]) {
    const others = aliasesOf(name);
    const requirement = required.includes(name)
      ? others.length > 0
        ? ` Required (or ${others.join(' or ')}).`
        : ' Required.'
      : '';
    shape[name] = value.openapi({ description: `${DESCRIPTIONS[name] ?? name}${requirement}` });
  }
  aliases.forEach(([alias, target], index) => {
    const before = [
      target,
      ...aliases
        .slice(0, index)
        .filter(([, t]) => t === target)
        .map(([a]) => a),
    ];
    const quoted = before.map((n) => `\`${n}\``);
    const absent =
      quoted.length === 1 ? `${quoted[0]} is not given` : `none of ${quoted.join(', ')} is given`;
    shape[alias] = value.openapi({ description: `Read as \`${target}\` when ${absent}.` });
  });
  return z.object(shape);
}

export const WordPressJson = z.any().openapi({
  description:
    'The WordPress REST API answer, unchanged (posts, terms or users as `wp/v2` returns them). ' +
    'Collections carry `X-WP-Total` and `X-WP-TotalPages`; every answer carries `X-Cache` ' +
    '(`HIT`, `MISS`, `STALE` when served from an expired copy because WordPress failed, `BYPASS` for `cache=false`).',
});

export const CacheStatus = z
  .object({
    success: z.literal(true),
    configured: z.boolean().openapi({ description: 'Whether WORDPRESS_API_URL is set.' }),
    ttlSeconds: z.number().int().openapi({ example: 300 }),
    entries: z.number().int().openapi({
      description: 'Entries under `posts_cache:` (fresh or kept for stale-if-error).',
      example: 12,
    }),
    sizeBytes: z.number().int().openapi({ example: 48213 }),
    oldest: z.string().nullable().openapi({
      description: 'When the oldest entry was stored (ISO 8601).',
      example: '2026-11-21T09:00:00.000Z',
    }),
    newest: z.string().nullable().openapi({ example: '2026-11-21T09:04:10.000Z' }),
    hits: z
      .number()
      .int()
      .openapi({ description: 'Requests answered from a fresh cached copy (all instances).', example: 420 }),
    misses: z.number().int().openapi({
      description:
        'Requests that went to WordPress, alone or sharing a request in progress (a 429 is not one).',
      example: 31,
    }),
    staleServed: z
      .number()
      .int()
      .openapi({ description: 'Stale copies served because WordPress failed.', example: 0 }),
    hitRatio: z
      .number()
      .nullable()
      .openapi({ description: 'hits / (hits + misses), null before any request.', example: 0.93 }),
  })
  .openapi('PostsCacheStatus');

export const CachePurged = z
  .object({
    success: z.literal(true),
    purged: z
      .number()
      .int()
      .openapi({ description: 'How many `posts_cache:` entries were deleted.', example: 12 }),
  })
  .openapi('PostsCachePurged');
