import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { POSTS_CACHE_PREFIX, POSTS_UPSTREAM_RATE } from './limits.ts';

/**
 * What front-end code sends: cache-busters, campaign tags, `q` for a search. WordPress ignores what
 * it does not know; the proxy does too, and never lets it reach WordPress or the cache key.
 */
const SITE = 'https://agency.example';

describe.each(await testEngines())('posts proxy query parameters on %s', (engine) => {
  let wp: StandIn;
  let ctx: TestContext & { url: string };
  const sent = () => wp.requests.map((r) => r.url.replace('/wp-json/wp/v2', ''));
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${ctx.url}${path}`, { headers: { 'x-forwarded-for': '203.0.113.50', ...headers } });
  const cacheKeys = async () =>
    (
      await ctx.deps.db
        .selectFrom('cache_entries')
        .select('key')
        .where('key', 'like', `${POSTS_CACHE_PREFIX}%`)
        .orderBy('key')
        .execute()
    ).map((r) => r.key);

  beforeAll(async () => {
    wp = await startStandIn((req, res) => {
      const url = new URL(req.url, 'http://wp');
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      // WordPress's own check of a known parameter's value.
      if (perPage > 100) {
        return sendJson(res, 400, {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): per_page',
        });
      }
      const body = url.pathname.endsWith('/users')
        ? [{ id: 3, name: 'Ana' }]
        : [{ id: 11, title: { rendered: 'Hello' } }];
      return sendJson(res, 200, body, { 'x-wp-total': '1', 'x-wp-totalpages': '1' });
    });
    ctx = await startTestServer({
      engine,
      env: { WORDPRESS_API_URL: `${wp.url}/wp-json/wp/v2`, TRUST_PROXY: 'xff', SITE_ORIGIN: SITE },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await wp.close();
  });

  it('ignores cache-busters and campaign tags: not sent upstream, not in the cache key', async () => {
    const first = await get('/api/posts?per_page=3&_=1732612345678&utm_source=newsletter&fbclid=abc');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(sent().at(-1)).toBe('/posts?per_page=3');
    expect(await cacheKeys()).toContain(`${POSTS_CACHE_PREFIX}/posts?per_page=3`);
    expect((await cacheKeys()).filter((key) => key.includes('utm') || key.includes('_='))).toEqual([]);

    const before = wp.requests.length;
    for (const path of ['/api/posts?per_page=3&_=1732612399999', '/api/posts?utm_medium=email&per_page=3']) {
      const again = await get(path);
      expect(again.status, path).toBe(200);
      expect(again.headers.get('x-cache'), path).toBe('HIT');
    }
    expect(wp.requests.length).toBe(before);
  });

  it('reads q as search on the posts routes, q or name on the author route; search wins', async () => {
    const cases: [string, string][] = [
      ['/api/posts?q=seo', '/posts?search=seo'],
      ['/api/posts/search?q=web+design', '/posts?search=web+design'],
      ['/api/posts/search?q=ignored&search=wins', '/posts?search=wins'],
      ['/api/posts/author?q=ana', '/users?search=ana'],
      ['/api/posts/author?name=bea', '/users?search=bea'],
      ['/api/posts/author?name=second&q=first', '/users?search=first'],
      ['/api/posts/author?name=x&q=y&search=z', '/users?search=z'],
    ];
    for (const [path, upstream] of cases) {
      const res = await get(`${path}&cache=false`);
      expect(res.status, path).toBe(200);
      expect(sent().at(-1), path).toBe(upstream);
    }
    // An alias is the same question as the parameter: one cache entry.
    expect((await get('/api/posts/search?search=cache-me')).headers.get('x-cache')).toBe('MISS');
    expect((await get('/api/posts/search?q=cache-me&_=1')).headers.get('x-cache')).toBe('HIT');
    // `name` is no alias on the posts routes: ignored.
    await get('/api/posts?name=x&per_page=4&cache=false');
    expect(sent().at(-1)).toBe('/posts?per_page=4');
  });

  it('still refuses what is wrong with the parameters it knows', async () => {
    const before = wp.requests.length;
    for (const path of ['/api/posts/search?utm_source=x', '/api/posts/search?q=', '/api/posts/author?_=1']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('search');
    }
    expect(wp.requests.length).toBe(before);
    // A value WordPress refuses is still its 400.
    const tooMany = await get('/api/posts?per_page=1000&utm_source=x');
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  it('names its upstream limit on every answer, and what is left of it when it went to WordPress', async () => {
    const policy = `"posts-upstream";q=${POSTS_UPSTREAM_RATE.limit};w=${POSTS_UPSTREAM_RATE.windowMs / 1000}`;
    const miss = await get('/api/posts?per_page=9', { origin: SITE, 'x-forwarded-for': '203.0.113.51' });
    expect(miss.headers.get('x-cache')).toBe('MISS');
    expect(miss.headers.get('ratelimit-policy')).toBe(policy);
    expect(miss.headers.get('ratelimit')).toMatch(
      new RegExp(`^"posts-upstream";r=${POSTS_UPSTREAM_RATE.limit - 1};t=\\d+$`),
    );
    expect(miss.headers.get('access-control-expose-headers')).toContain('RateLimit-Policy');
    const hit = await get('/api/posts?per_page=9', { 'x-forwarded-for': '203.0.113.51' });
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('ratelimit-policy')).toBe(policy);
    // A hit never touches the limiter, so it cannot say what is left.
    expect(hit.headers.get('ratelimit')).toBeNull();
  });
});
