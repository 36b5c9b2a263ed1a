import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { createTestApp, startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { POSTS_UPSTREAM_RATE } from './limits.ts';

const POSTS = [
  { id: 11, title: { rendered: 'Hello' }, excerpt: { rendered: '<p>One</p>' } },
  { id: 12, title: { rendered: 'World' }, excerpt: { rendered: '<p>Two</p>' } },
];
const ORIGIN = 'https://agency.example';
const SECRET = 'cache-secret-for-tests';

/** A WordPress REST API stand-in (wp-json/wp/v2) whose behaviour each test can switch. */
let mode: 'ok' | 'down' | 'challenge' | 'html403' | 'bad-param' | 'bad-param-markup' | 'bom' | 'unpublished' =
  'ok';
function wordpress(req: { url: string }, res: import('node:http').ServerResponse) {
  const url = new URL(req.url, 'http://wp');
  const path = url.pathname.replace('/wp-json/wp/v2', '');
  if (mode === 'down') return sendJson(res, 500, { code: 'internal', message: 'db down' });
  if (mode === 'challenge') {
    res.writeHead(403, { 'content-type': 'text/html', 'cf-mitigated': 'challenge' });
    res.end('<html>Just a moment...</html>');
    return;
  }
  if (mode === 'html403') {
    res.writeHead(403, { 'content-type': 'text/html; charset=UTF-8' });
    res.end('<html>Attention required</html>');
    return;
  }
  if (mode === 'bad-param') {
    return sendJson(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page' });
  }
  if (mode === 'unpublished') {
    // Post 11 was unpublished and author 3 has no published post left: WordPress answers 401 to a
    // visitor (rest_authorization_required_code) for both.
    if (path === '/posts/11')
      return sendJson(res, 401, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
      });
    if (path === '/users/3')
      return sendJson(res, 401, {
        code: 'rest_user_cannot_view',
        message: 'Sorry, you are not allowed to list users.',
      });
    return sendJson(res, 500, { code: 'internal', message: 'db down' });
  }
  if (mode === 'bom') {
    // A plugin or theme file saved with a byte-order mark prints it before WordPress's JSON.
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'x-wp-total': '42' });
    res.end(`\uFEFF${JSON.stringify(POSTS)}`);
    return;
  }
  if (mode === 'bad-param-markup') {
    // A run of `<` with no `>`: stripping tags with `<[^>]*>` took over a minute on this.
    const message = `Invalid parameter(s): <b>per_page</b> ${'<'.repeat(300_000)}`;
    return sendJson(res, 400, { code: 'rest_invalid_param', message });
  }
  if (path === '/posts') return sendJson(res, 200, POSTS, { 'x-wp-total': '42', 'x-wp-totalpages': '21' });
  if (path === '/posts/11') return sendJson(res, 200, POSTS[0]);
  if (/^\/posts\/\d+$/.test(path))
    return sendJson(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.' });
  if (path === '/tags')
    return sendJson(res, 200, [{ id: 1, name: 'web', count: 7 }], {
      'x-wp-total': '1',
      'x-wp-totalpages': '1',
    });
  if (path === '/categories') return sendJson(res, 200, [{ id: 2, name: 'News' }]);
  if (path === '/users') return sendJson(res, 200, [{ id: 3, name: 'Ana' }]);
  if (path === '/users/3') return sendJson(res, 200, { id: 3, name: 'Ana' });
  if (/^\/users\/\d+$/.test(path))
    return sendJson(res, 404, { code: 'rest_user_invalid_id', message: 'Invalid user ID.' });
  return sendJson(res, 404, { code: 'rest_no_route' });
}

/**
 * WordPress holds its answers while a test keeps the gate closed, so requests overlap for certain.
 * `holdUpstream` closes it and returns the function that opens it again.
 */
let gate: Promise<void> = Promise.resolve();
function holdUpstream(): () => void {
  let open = () => {};
  gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    gate = Promise.resolve();
    open();
  };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const started = Date.now(); !(await condition()); await sleep(5)) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('posts proxy not configured', () => {
  it('answers 503 NOT_CONFIGURED on every proxied route and reports it in the status', async () => {
    const ctx = await createTestApp();
    try {
      for (const path of [
        '/api/posts',
        '/api/posts/search?search=a',
        '/api/posts/tags',
        '/api/posts/categories',
        '/api/posts/author?search=a',
        '/api/posts/author/3',
        '/api/posts/11',
      ]) {
        const res = await ctx.app.request(path);
        expect(res.status, path).toBe(503);
        expect((await res.json()).error.code).toBe('NOT_CONFIGURED');
      }
      const status = await (await ctx.app.request('/api/posts/cache/status')).json();
      expect(status).toMatchObject({ success: true, configured: false, entries: 0 });
    } finally {
      await ctx.close();
    }
  });
});

describe('posts routes in the API description', () => {
  it('documents every proxy route with the query parameters it passes through', async () => {
    const ctx = await createTestApp();
    try {
      const doc = (await (await ctx.app.request('/openapi.json')).json()) as {
        paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
      };
      const queryOf = (path: string) =>
        (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(queryOf('/api/posts')).toEqual(expect.arrayContaining(['page', 'per_page', '_embed', 'cache']));
      expect(queryOf('/api/posts/search')).toContain('search');
      for (const path of ['/api/posts/tags', '/api/posts/categories', '/api/posts/author']) {
        expect(doc.paths[path]?.get, path).toBeDefined();
      }
      for (const path of ['/api/posts/{id}', '/api/posts/author/{id}']) {
        const params = doc.paths[path]?.get?.parameters ?? [];
        expect(
          params.some((p) => p.in === 'path' && p.name === 'id'),
          path,
        ).toBe(true);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('posts proxy with WordPress down', () => {
  it('answers 502 when WordPress is unreachable', async () => {
    const down = await createTestApp({ env: { WORDPRESS_API_URL: 'http://127.0.0.1:9/wp-json/wp/v2' } });
    try {
      const res = await down.app.request('/api/posts');
      expect(res.status).toBe(502);
    } finally {
      await down.close();
    }
  });
});

describe.each(await testEngines())('posts proxy on %s', (engine) => {
  let wp: StandIn;
  let ctx: TestContext;
  const upstream = () => wp.requests.map((r) => r.url);
  const get = (path: string, headers: Record<string, string> = {}) => ctx.app.request(path, { headers });
  /**
   * Misses counted so far: a request counts its miss once it has joined (or started) an upstream
   * flight, just before it waits for it. Waiting on this instead of a sleep knows every request is in.
   */
  const countedMisses = async () =>
    ((await (await get('/api/posts/cache/status')).json()) as { misses: number }).misses;

  beforeAll(async () => {
    wp = await startStandIn(async (req, res) => {
      await gate;
      wordpress(req, res);
    });
    ctx = await createTestApp({
      engine,
      env: { WORDPRESS_API_URL: `${wp.url}/wp-json/wp/v2/`, CACHE_API_SECRET: SECRET, SITE_ORIGIN: ORIGIN },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await wp.close();
  });

  it('passes the listed parameters through, preserves X-WP-Total and caches the answer', async () => {
    mode = 'ok';
    const first = await get('/api/posts?per_page=2&page=1&categories=3&_embed=1', { Origin: ORIGIN });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(POSTS);
    expect(first.headers.get('x-wp-total')).toBe('42');
    expect(first.headers.get('x-wp-totalpages')).toBe('21');
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('access-control-expose-headers')).toContain('X-WP-TotalPages');
    expect(first.headers.get('access-control-expose-headers')).toContain('X-Cache');
    expect(upstream().at(-1)).toBe('/wp-json/wp/v2/posts?_embed=1&categories=3&page=1&per_page=2');

    const before = wp.requests.length;
    const second = await get('/api/posts?page=1&_embed=1&categories=3&per_page=2');
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('x-wp-total')).toBe('42');
    expect(await second.json()).toEqual(POSTS);
    expect(wp.requests.length).toBe(before);
  });

  it("sends repeated parameters upstream in the caller's order, each order its own cache entry", async () => {
    mode = 'ok';
    const sent = () => new URL(upstream().at(-1)!, 'http://wp').searchParams;
    const first = await get('/api/posts?include[]=3&include[]=1&orderby=include');
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(sent().getAll('include[]')).toEqual(['3', '1']);
    const swapped = await get('/api/posts?include[]=1&include[]=3&orderby=include');
    expect(swapped.headers.get('x-cache')).toBe('MISS');
    expect(sent().getAll('include[]')).toEqual(['1', '3']);
    // Names in another order are still the same question.
    expect((await get('/api/posts?orderby=include&include[]=3&include[]=1')).headers.get('x-cache')).toBe(
      'HIT',
    );

    // PHP keeps the last of a repeated name.
    await get('/api/posts?page=2&page=1&per_page=11');
    expect(sent().getAll('page')).toEqual(['2', '1']);
    expect((await get('/api/posts?page=1&page=2&per_page=11')).headers.get('x-cache')).toBe('MISS');
    expect(sent().getAll('page')).toEqual(['1', '2']);

    // `name` and `name[]` are one PHP variable (the last one wins): their order is kept as well.
    const sentQuery = () => new URL(upstream().at(-1)!, 'http://wp').search;
    await get('/api/posts?categories[]=2&categories=1&per_page=12');
    expect(sentQuery()).toBe('?categories%5B%5D=2&categories=1&per_page=12');
    expect((await get('/api/posts?categories=1&categories[]=2&per_page=12')).headers.get('x-cache')).toBe(
      'MISS',
    );
    expect(sentQuery()).toBe('?categories=1&categories%5B%5D=2&per_page=12');
  });

  it('keeps _embed and _fields in the cache key', async () => {
    mode = 'ok';
    await get('/api/posts?per_page=5');
    const withFields = await get('/api/posts?per_page=5&_fields=id,title');
    expect(withFields.headers.get('x-cache')).toBe('MISS');
    const withEmbed = await get('/api/posts?per_page=5&_embed=true');
    expect(withEmbed.headers.get('x-cache')).toBe('MISS');
    expect((await get('/api/posts?per_page=5&_embed=true')).headers.get('x-cache')).toBe('HIT');
  });

  it('bypasses the cached copy with cache=false and never sends cache upstream', async () => {
    mode = 'ok';
    await get('/api/posts?per_page=7');
    const before = wp.requests.length;
    const res = await get('/api/posts?per_page=7&cache=false');
    expect(res.headers.get('x-cache')).toBe('BYPASS');
    expect(wp.requests.length).toBe(before + 1);
    expect(upstream().at(-1)).toBe('/wp-json/wp/v2/posts?per_page=7');
  });

  it('sends concurrent identical misses upstream once; a cache=false asked meanwhile gets its own request', async () => {
    mode = 'ok';
    const path = '/api/posts?search=together&per_page=3';
    const sent = () => upstream().filter((url) => url.includes('search=together')).length;
    const open = holdUpstream();
    let misses: Response[];
    let bypass: Response;
    let late: Response;
    try {
      const before = await countedMisses();
      const pendingMisses = Array.from({ length: 5 }, () => get(path));
      await until(() => sent() >= 1, 'the first upstream request');
      await until(async () => (await countedMisses()) >= before + 5, 'all five misses to join the flight');
      expect(sent()).toBe(1);
      // The request in progress started before this bypass, so the bypass asks again...
      const pendingBypass = get(`${path}&cache=false`);
      await until(() => sent() >= 2, 'the bypass upstream request');
      // ...and a miss asked after it shares the bypass's newer request.
      const pendingLate = get(path);
      await until(
        async () => (await countedMisses()) >= before + 7,
        'the late miss to join the bypass flight',
      );
      open();
      [misses, bypass, late] = await Promise.all([Promise.all(pendingMisses), pendingBypass, pendingLate]);
    } finally {
      open();
    }
    expect(sent()).toBe(2);
    for (const res of [...misses, late]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBe('MISS');
      expect(res.headers.get('x-wp-total')).toBe('42');
      expect(await res.json()).toEqual(POSTS);
    }
    expect(bypass.status).toBe(200);
    expect(bypass.headers.get('x-cache')).toBe('BYPASS');
    expect(await bypass.json()).toEqual(POSTS);
    expect((await get(path)).headers.get('x-cache')).toBe('HIT');
    expect(sent()).toBe(2);
  });

  it('gives every caller sharing a failed upstream request the error, and the next request asks again', async () => {
    mode = 'down';
    const path = '/api/posts?search=fail-together';
    const sent = () => upstream().filter((url) => url.includes('search=fail-together')).length;
    const open = holdUpstream();
    let failed: Response[];
    try {
      const before = await countedMisses();
      const pending = Array.from({ length: 4 }, () => get(path));
      await until(() => sent() >= 1, 'the first upstream request');
      await until(async () => (await countedMisses()) >= before + 4, 'all four misses to join the flight');
      open();
      failed = await Promise.all(pending);
    } finally {
      open();
      mode = 'ok';
    }
    expect(sent()).toBe(1);
    for (const res of failed) {
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({
        success: false,
        error: { code: 'EXTERNAL_SERVICE_ERROR', message: expect.stringContaining('unavailable') },
      });
    }
    const again = await get(path);
    expect(sent()).toBe(2);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-cache')).toBe('MISS');
  });

  it('ignores unknown query parameters: WordPress is asked without them', async () => {
    mode = 'ok';
    const res = await get('/api/posts?per_page=2&password=x&context=edit&cache=false');
    expect(res.status).toBe(200);
    expect(upstream().at(-1)).toBe('/wp-json/wp/v2/posts?per_page=2');
    // Tags pass on only per_page, orderby, order and _fields.
    expect((await get('/api/posts/tags?search=x&cache=false')).status).toBe(200);
    expect(upstream().at(-1)).toBe('/wp-json/wp/v2/tags');
  });

  it('maps each route to its WordPress resource', async () => {
    mode = 'ok';
    const cases: [string, string][] = [
      ['/api/posts/search?search=seo&page=2', '/wp-json/wp/v2/posts?page=2&search=seo'],
      [
        '/api/posts/tags?per_page=50&orderby=count&order=desc',
        '/wp-json/wp/v2/tags?order=desc&orderby=count&per_page=50',
      ],
      ['/api/posts/categories', '/wp-json/wp/v2/categories'],
      ['/api/posts/author?search=ana', '/wp-json/wp/v2/users?search=ana'],
      ['/api/posts/author/3', '/wp-json/wp/v2/users/3'],
      ['/api/posts/11?_embed=1', '/wp-json/wp/v2/posts/11?_embed=1'],
    ];
    for (const [path, expected] of cases) {
      const res = await get(`${path}${path.includes('?') ? '&' : '?'}cache=false`);
      expect(res.status, path).toBe(200);
      expect(upstream().at(-1), path).toBe(expected);
    }
    expect((await get('/api/posts/tags?cache=false')).headers.get('x-wp-total')).toBe('1');
  });

  it('requires search on the search routes', async () => {
    expect((await get('/api/posts/search')).status).toBe(400);
    expect((await get('/api/posts/author?search=')).status).toBe(400);
  });

  it('answers 404 for a post or author WordPress does not have, and for a non-numeric id', async () => {
    mode = 'ok';
    const missing = await get('/api/posts/999');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No post with id 999.' },
    });
    expect((await get('/api/posts/author/998')).status).toBe(404);
    expect((await get('/api/posts/abc')).status).toBe(404);
  });

  it('answers 404 for a post or author the public may no longer read, and never serves its stale copy', async () => {
    mode = 'ok';
    expect((await get('/api/posts/11')).status).toBe(200);
    expect((await get('/api/posts/author/3')).status).toBe(200);
    mode = 'unpublished';
    const post = await get('/api/posts/11?cache=false');
    const author = await get('/api/posts/author/3?cache=false');
    mode = 'ok';
    expect(post.status).toBe(404);
    expect((await post.json()).error).toMatchObject({ code: 'NOT_FOUND', message: 'No post with id 11.' });
    expect(author.status).toBe(404);
    // The copy from before is gone: WordPress failing later does not bring the post back.
    mode = 'down';
    const later = await get('/api/posts/11');
    mode = 'ok';
    expect(later.status).toBe(502);
  });

  it('passes a WordPress 400 on as 400 VALIDATION_ERROR', async () => {
    mode = 'bad-param';
    const res = await get('/api/posts?per_page=1000');
    mode = 'ok';
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('per_page');
  });

  it("strips markup from WordPress's 400 message, however many unclosed tags it has", async () => {
    mode = 'bad-param-markup';
    const res = await get('/api/posts?per_page=1001');
    mode = 'ok';
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(
      /rejected the query: Invalid parameter\(s\): per_page <+$/,
    );
  });

  it('accepts a WordPress answer that starts with a byte-order mark, and sends it on without one', async () => {
    mode = 'bom';
    const res = await get('/api/posts?per_page=7');
    mode = 'ok';
    expect(res.status).toBe(200);
    expect(res.headers.get('x-wp-total')).toBe('42');
    const text = await res.text();
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(JSON.parse(text)).toEqual(POSTS);
  });

  const wordpressErrors = async () =>
    (await ctx.deps.metrics.outboundErrors.get()).values.find((v) => v.labels.service === 'wordpress')
      ?.value ?? 0;

  it('serves a stale copy when WordPress fails, and 502 when there is none; each failure is counted', async () => {
    mode = 'ok';
    await get('/api/posts?per_page=9');
    const failedBefore = await wordpressErrors();
    mode = 'down';
    const stale = await get('/api/posts?per_page=9&cache=false');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-cache')).toBe('STALE');
    expect(stale.headers.get('x-wp-total')).toBe('42');
    const none = await get('/api/posts?per_page=8');
    mode = 'ok';
    expect(none.status).toBe(502);
    expect((await none.json()).error.code).toBe('EXTERNAL_SERVICE_ERROR');
    expect(await wordpressErrors()).toBe(failedBefore + 2);
  });

  it('never caches a 403 bot challenge: 502 with the remedy logged, or the stale copy', async () => {
    for (const challenge of ['challenge', 'html403'] as const) {
      mode = challenge;
      const before = wp.requests.length;
      const res = await get(`/api/posts?per_page=3&page=${challenge === 'challenge' ? 1 : 2}`);
      expect(res.status).toBe(502);
      expect((await res.json()).error.code).toBe('EXTERNAL_SERVICE_ERROR');
      const again = await get(`/api/posts?per_page=3&page=${challenge === 'challenge' ? 1 : 2}`);
      expect(again.status).toBe(502);
      expect(wp.requests.length).toBe(before + 2);
    }
    const line = ctx.logs.lines.find((l) => String(l.msg).includes('bot challenge'));
    expect(String(line?.msg)).toContain('zone rule');

    mode = 'ok';
    await get('/api/posts?per_page=4');
    mode = 'challenge';
    const stale = await get('/api/posts?per_page=4&cache=false');
    mode = 'ok';
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-cache')).toBe('STALE');
  });

  it('reports cache status with a shared hit ratio', async () => {
    mode = 'ok';
    await get('/api/posts?per_page=10');
    await get('/api/posts?per_page=10');
    const status = await (await get('/api/posts/cache/status')).json();
    expect(status.success).toBe(true);
    expect(status.configured).toBe(true);
    expect(status.ttlSeconds).toBe(300);
    expect(status.entries).toBeGreaterThan(3);
    expect(status.sizeBytes).toBeGreaterThan(100);
    expect(Date.parse(status.oldest)).toBeLessThanOrEqual(Date.parse(status.newest));
    expect(status.hits).toBeGreaterThanOrEqual(3);
    expect(status.misses).toBeGreaterThan(0);
    expect(status.hitRatio).toBeCloseTo(status.hits / (status.hits + status.misses), 2);
  });

  it('purges every posts_cache: entry behind X-Cache-Api-Key, on both routes', async () => {
    mode = 'ok';
    await ctx.deps.cache.set('other:keep', { x: 1 }, 60);
    expect((await ctx.app.request('/api/posts/cache', { method: 'DELETE' })).status).toBe(401);
    const wrong = await ctx.app.request('/api/posts/cache', {
      method: 'DELETE',
      headers: { 'X-Cache-Api-Key': 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe('UNAUTHORIZED');
    expect((await ctx.app.request('/api/posts/cache/clear', { method: 'POST' })).status).toBe(401);

    const entries = (await (await get('/api/posts/cache/status')).json()).entries as number;
    const purge = await ctx.app.request('/api/posts/cache', {
      method: 'DELETE',
      headers: { 'X-Cache-Api-Key': SECRET },
    });
    expect(purge.status).toBe(200);
    expect(await purge.json()).toEqual({ success: true, purged: entries });
    expect((await ctx.deps.cache.get('other:keep'))?.value).toEqual({ x: 1 });

    await get('/api/posts?per_page=2');
    const clear = await ctx.app.request('/api/posts/cache/clear', {
      method: 'POST',
      headers: { 'X-Cache-Api-Key': SECRET },
    });
    expect(await clear.json()).toEqual({ success: true, purged: 1 });
    expect((await get('/api/posts?per_page=2')).headers.get('x-cache')).toBe('MISS');
  });
});

describe.each(await testEngines())('posts upstream limit on %s', (engine) => {
  let wp: StandIn;
  let server: TestContext & { url: string };
  // Over a real socket, the client named by X-Forwarded-For (TRUST_PROXY=xff).
  const get = (path: string, ip: string) =>
    fetch(`${server.url}${path}`, { headers: { 'X-Forwarded-For': ip } });
  const counted = async () => {
    const rows = await server.deps.db.selectFrom('rate_limits').select('count').execute();
    return rows.reduce((sum, row) => sum + Number(row.count), 0);
  };

  beforeAll(async () => {
    wp = await startStandIn((req, res) => {
      wordpress(req, res);
    });
    server = await startTestServer({
      engine,
      env: { WORDPRESS_API_URL: `${wp.url}/wp-json/wp/v2`, TRUST_PROXY: 'xff' },
    });
  });
  afterAll(async () => {
    await server.close();
    await wp.close();
  });

  it('limits requests that go to WordPress per client (IPv6 by /64) with 429, never cache hits', async () => {
    mode = 'ok';
    const client = '2001:db8:7:8::1';
    const first = await get('/api/posts?per_page=4', client);
    expect(first.headers.get('x-cache')).toBe('MISS');
    for (let i = 1; i < POSTS_UPSTREAM_RATE.limit; i++) {
      const res = await get(`/api/posts/search?search=word${i}`, client);
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const sent = wp.requests.length;

    // Another address of the same /64 is the same client; a miss and a bypass are both refused.
    for (const path of ['/api/posts/search?search=one-more', '/api/posts?per_page=4&cache=false']) {
      const limited = await get(path, '2001:db8:7:8::2');
      expect(limited.status, path).toBe(429);
      expect(limited.headers.get('retry-after'), path).toMatch(/^[1-9]\d*$/);
      expect(await limited.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    }
    expect(wp.requests.length).toBe(sent);

    // Cache hits keep answering, and never reach the limiter.
    const before = await counted();
    for (let i = 0; i < 5; i++) {
      const hit = await get('/api/posts?per_page=4', client);
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-cache')).toBe('HIT');
      expect(await hit.json()).toEqual(POSTS);
    }
    expect(await counted()).toBe(before);

    // Other clients are not affected.
    for (const other of ['2001:db8:7:9::1', '203.0.113.9']) {
      expect((await get('/api/posts/search?search=one-more', other)).status, other).toBe(200);
    }
  });
});
