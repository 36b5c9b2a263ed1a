import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { fromPlausible } from './plausible.ts';

const engines = await testEngines();

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

describe('Plausible payloads', () => {
  it('reads the compact fields as the service’s own', () => {
    expect(
      fromPlausible({ n: 'pageview', u: 'https://a.example/x?utm_source=y', d: 'a.example', r: null, v: 36 }),
    ).toEqual({
      type: 'page_view',
      url: 'https://a.example/x?utm_source=y',
      referrer: null,
      properties: undefined,
      interactive: undefined,
      engagementMs: undefined,
    });
    expect(fromPlausible({ n: 'engagement', u: '/x', e: 5300, sd: 40 })).toMatchObject({
      type: 'engagement',
      engagementMs: 5300,
    });
    // Older scripts send properties as JSON text (`p`, before it `m`), and link URLs keep no query.
    expect(fromPlausible({ n: 'signup', u: '/x', p: '{"plan":"pro"}' }).properties).toEqual({ plan: 'pro' });
    expect(fromPlausible({ n: 'signup', u: '/x', m: '{"plan":"team"}' }).properties).toEqual({
      plan: 'team',
    });
    expect(
      fromPlausible({ n: 'Outbound Link: Click', u: '/x', p: { url: 'https://out.example/a?token=1' } }),
    ).toMatchObject({ type: 'outbound_link', properties: { url: 'https://out.example/a' } });
    expect(fromPlausible({ n: 'x', u: '/x', i: false }).interactive).toBe(false);
    // The service's own body is left as it is.
    const own = { type: 'signup', page: '/x', n: 'other', u: '/y' };
    expect(fromPlausible(own)).toBe(own);
  });
});

describe.each(engines)('track and stats over HTTP on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ engine, env: { TRUST_PROXY: 'cloudflare' } });
  });
  afterAll(() => ctx.close());

  const send = (body: unknown, ua: string, ip: string, country = 'DE') =>
    ctx.app.request('/api/analytics/track', {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'user-agent': ua,
        'cf-connecting-ip': ip,
        'cf-ipcountry': country,
      },
      body: JSON.stringify(body),
    });
  const stats = async (query = '') => {
    const response = await ctx.app.request(`/api/analytics/stats${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('the legacy script’s payload (XMLHttpRequest, text/plain, `w`, `h`) and engagement are counted like ours', async () => {
    const ip = '192.0.2.10';
    expect(
      (
        await send(
          {
            n: 'pageview',
            u: 'https://a.example/home?utm_medium=cpc',
            d: 'a.example',
            r: 'https://duckduckgo.com/',
            w: 1280,
          },
          FIREFOX,
          ip,
        )
      ).status,
    ).toBe(202);
    expect(
      (
        await send(
          { n: 'engagement', u: 'https://a.example/home', d: 'a.example', e: 42_000, sd: 80, v: 36 },
          FIREFOX,
          ip,
        )
      ).status,
    ).toBe(202);
    expect(
      (await send({ type: 'page_view', url: 'https://a.example/home' }, ANDROID, '192.0.2.11', 'FR')).status,
    ).toBe(202);
    const { body } = await stats();
    expect(body).toMatchObject({ pageviews: 2, totalEvents: 2, visits: 2, timeOnPage: 21 });
    expect(body.sources).toMatchObject([{ source: null }, { source: 'DuckDuckGo', category: 'search' }]);
    expect(body.utmMediums).toMatchObject([{ utmMedium: 'cpc' }]);
    expect(body.devices).toMatchObject([{ device: 'desktop' }, { device: 'mobile' }]);
    expect(body.operatingSystems).toMatchObject([{ os: 'Android' }, { os: 'Windows' }]);
    expect(body.browsers).toMatchObject([{ browser: 'Chrome' }, { browser: 'Firefox' }]);
    const filtered = await stats('?country=fr&device=mobile');
    expect(filtered.body).toMatchObject({
      visits: 1,
      pageviews: 1,
      filters: { country: 'FR', device: 'mobile' },
    });
    expect((await stats('?os=Windows&browser=Firefox')).body).toMatchObject({ visits: 1, timeOnPage: 42 });
  });

  it('the landing referrer Plausible sends with every event is one referral, filtered or not; another site’s within the visit is another', async () => {
    const ip = '192.0.2.20';
    const r = 'https://news.ycombinator.com/item?id=1';
    for (const event of [
      { n: 'pageview', u: 'https://a.example/spa', d: 'a.example', r },
      { n: 'Signup', u: 'https://a.example/spa', d: 'a.example', r, p: { plan: 'pro' } },
      {
        n: 'Outbound Link: Click',
        u: 'https://a.example/spa',
        d: 'a.example',
        r,
        p: { url: 'https://out.example/' },
      },
      { n: 'engagement', u: 'https://a.example/spa', d: 'a.example', r, e: 1000 },
      { n: 'pageview', u: 'https://a.example/spa/next', d: 'a.example', r },
      { n: 'pageview', u: 'https://a.example/spa/again', d: 'a.example', r: 'https://lobste.rs/' },
    ]) {
      expect((await send(event, FIREFOX, ip)).status).toBe(202);
    }
    const countOf = (report: Record<string, unknown>, host: string) =>
      (report.topReferrers as { referrer: string; count: number }[]).find((row) => row.referrer === host)
        ?.count;
    for (const query of ['', '?os=Windows', '?source=Hacker%20News']) {
      const { body } = await stats(query);
      expect([query, countOf(body, 'news.ycombinator.com'), countOf(body, 'lobste.rs')]).toEqual([
        query,
        1,
        1,
      ]);
    }
    expect((await stats('?source=Hacker%20News')).body).toMatchObject({ visits: 1, pageviews: 3 });
  });

  it('a page filter finds its page by the value the report shows, a readable path, or a URL', async () => {
    expect(
      (
        await send(
          { n: 'pageview', u: 'https://a.example/diseño?utm_source=x', d: 'a.example' },
          FIREFOX,
          '192.0.2.30',
        )
      ).status,
    ).toBe(202);
    const stored = await stats('?page=/dise%25C3%25B1o');
    expect(stored.body).toMatchObject({ visits: 1, filters: { page: '/dise%C3%B1o' } });
    for (const query of [
      '?page=/diseño',
      '?page=https://a.example/dise%C3%B1o%3Fq%3D1',
      '?entry_page=/diseño',
      '?exit_page=/dise%C3%B1o',
    ]) {
      const { body } = await stats(query);
      expect([query, body.visits, body.pageviews]).toEqual([query, 1, 1]);
    }
    // The value as the report shows it finds its page too: one stored decoded (its phone number
    // masked after decoding), and one starting `//` (parsed, it would be a host and the page `/`).
    for (const [ip, url] of [
      ['192.0.2.31', 'https://a.example/call/+57%20310%20777%208899/dise%C3%B1o'],
      ['192.0.2.32', 'https://a.example//blog'],
      ['192.0.2.33', 'https://a.example/'],
    ] as const) {
      expect((await send({ n: 'pageview', u: url, d: 'a.example' }, FIREFOX, ip)).status).toBe(202);
    }
    const pages = (await stats('?limit=100')).body.topPages as { page: string }[];
    const shown = pages.map((p) => p.page).filter((page) => page.startsWith('/call/') || page === '//blog');
    expect(shown).toHaveLength(2);
    for (const page of shown) {
      const { body } = await stats(`?page=${encodeURIComponent(page)}`);
      expect([page, body.visits, body.pageviews]).toEqual([page, 1, 1]);
    }
  });

  it('a filter value longer than the limit is a 400; an empty one is no filter', async () => {
    expect((await stats(`?page=${'a'.repeat(L.filterLength + 1)}`)).status).toBe(400);
    const empty = await stats('?source=');
    expect(empty.status).toBe(200);
    expect(empty.body.filters).toEqual({});
  });

  it('engagementMs must be a non-negative number; interactive a boolean', async () => {
    const bad = async (body: unknown) => (await send(body, FIREFOX, '192.0.2.12')).status;
    expect(await bad({ type: 'engagement', page: '/', engagementMs: -1 })).toBe(400);
    expect(await bad({ type: 'engagement', page: '/', engagementMs: '5' })).toBe(400);
    expect(await bad({ type: 'x', page: '/', interactive: 'no' })).toBe(400);
  });

  it('an engagement without its time, or with a time that is not a number ≥ 0, is refused in either form', async () => {
    const visitor = '192.0.2.13';
    const page = { n: 'pageview', u: 'https://a.example/time', d: 'a.example' };
    expect((await send(page, FIREFOX, visitor)).status).toBe(202);
    const before = (await stats('?page=/time')).body;
    const u = 'https://a.example/time';
    for (const body of [
      { type: 'engagement', page: '/time' },
      { n: 'engagement', u, d: 'a.example' },
      { n: 'engagement', u, d: 'a.example', e: 'abc' },
      { n: 'engagement', u, d: 'a.example', e: -5 },
      { n: 'engagement', u, d: 'a.example', e: null },
    ]) {
      const response = await send(body, FIREFOX, visitor);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /^engagementMs: /,
      );
    }
    // Nothing moved: the visit neither grew longer nor gained time on page.
    expect((await stats('?page=/time')).body).toEqual(before);
  });
});
