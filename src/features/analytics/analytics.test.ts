import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { ADMIN_ENV, ADMIN_KEY } from '../../../test/support/features/admin.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { BOTS_COUNTER } from './store.ts';

const engines = await testEngines();

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';

type Server = TestContext & { url: string };

function track(server: Server, body: BodyInit | null, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/api/analytics/track`, {
    method: 'POST',
    headers: { 'User-Agent': CHROME, ...headers },
    body,
  });
}

/** The database once every acknowledged event is folded into the events, visits and rollups. */
async function stored(server: Server) {
  await server.deps.flush();
  return server.deps.db;
}

async function eventCount(server: Server): Promise<number> {
  const row = await (await stored(server))
    .selectFrom('analytics_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function stats(server: Server, query = '') {
  const res = await fetch(`${server.url}/api/analytics/stats${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    totalEvents: number;
    uniquePages: number;
    uniqueVisitors: number;
    topPages: { page: string; count: number }[];
    topCountries: { country: string | null; count: number }[];
    eventTypes: { type: string; count: number }[];
    topReferrers: { referrer: string; count: number }[];
    timeseries: { date: string; events: number; visitors: number }[];
    botsDropped: number;
    range: { from: string; to: string };
  };
}

describe.each(engines)('analytics over HTTP on %s (TRUST_PROXY=xff)', (engine) => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { ...ADMIN_ENV, TRUST_PROXY: 'xff', SITE_ORIGIN: 'https://agency.example' },
    });
  });
  afterAll(() => server.close());

  it('accepts every navigator.sendBeacon content type with 202', async () => {
    const before = await eventCount(server);
    const json = JSON.stringify({ type: 'page_view', page: '/beacon-text' });
    // sendBeacon(url, string) → text/plain;charset=UTF-8
    expect((await track(server, json, { 'Content-Type': 'text/plain;charset=UTF-8' })).status).toBe(202);
    // sendBeacon(url, new Blob([json], {type: 'application/json'}))
    const blob = await track(server, JSON.stringify({ page: '/beacon-json' }), {
      'Content-Type': 'application/json',
    });
    expect(blob.status).toBe(202);
    expect(await blob.json()).toEqual({ success: true });
    // sendBeacon(url, new Blob([json])) or an ArrayBuffer → no content type
    expect(
      (await track(server, new TextEncoder().encode(JSON.stringify({ page: '/beacon-none' })))).status,
    ).toBe(202);
    // sendBeacon(url, new URLSearchParams(...)) → application/x-www-form-urlencoded
    const form = new URLSearchParams({
      type: 'signup',
      url: 'https://agency.example/beacon-form?x=1',
      properties: '{"plan":"pro"}',
    });
    expect((await track(server, form)).status).toBe(202);
    // sendBeacon(url, formData) → multipart/form-data
    const multipart = new FormData();
    multipart.set('page', '/beacon-multipart');
    multipart.set('title', 'Multipart');
    expect((await track(server, multipart)).status).toBe(202);
    expect(await eventCount(server)).toBe(before + 5);

    const rows = await (await stored(server))
      .selectFrom('analytics_events')
      .selectAll()
      .where('page', 'like', '/beacon-%')
      .execute();
    const byPage = Object.fromEntries(rows.map((r) => [r.page, r]));
    expect(Object.keys(byPage).sort()).toEqual([
      '/beacon-form',
      '/beacon-json',
      '/beacon-multipart',
      '/beacon-none',
      '/beacon-text',
    ]);
    expect(byPage['/beacon-form']).toMatchObject({ type: 'signup', properties: '{"plan":"pro"}' });
    expect(byPage['/beacon-multipart']).toMatchObject({ type: 'page_view', title: 'Multipart' });
  });

  it('refuses other content types (415), bad JSON and missing page (400)', async () => {
    const before = await eventCount(server);
    expect((await track(server, '<e/>', { 'Content-Type': 'application/xml' })).status).toBe(415);
    const bad = await track(server, '{"page":', { 'Content-Type': 'text/plain' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    expect((await track(server, '[1,2]', { 'Content-Type': 'application/json' })).status).toBe(400);
    expect((await track(server, '{"type":"x"}', { 'Content-Type': 'application/json' })).status).toBe(400);
    expect((await track(server, '', { 'Content-Type': 'text/plain' })).status).toBe(400);
    expect(await eventCount(server)).toBe(before);
  });

  it('refuses oversized properties, deep nesting and large bodies, storing nothing', async () => {
    const before = await eventCount(server);
    const manyKeys = Object.fromEntries(
      Array.from({ length: L.properties.keys + 1 }, (_, i) => [`k${i}`, i]),
    );
    const cases: [unknown, number, RegExp][] = [
      [{ page: '/p', properties: manyKeys }, 400, /properties/],
      [{ page: '/p', properties: { a: { b: { c: { d: 1 } } } } }, 400, /properties/],
      [{ page: '/p', properties: { s: 'x'.repeat(L.properties.stringLength + 1) } }, 400, /properties/],
      [{ page: '/p', properties: 'not an object' }, 400, /properties/],
    ];
    for (const [body, status, message] of cases) {
      const res = await track(server, JSON.stringify(body), { 'Content-Type': 'application/json' });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    const deep = `{"page":"/p","x":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const nested = await track(server, deep, { 'Content-Type': 'application/json' });
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { error: { message: string } }).error.message).toMatch(/nested/);
    const huge = JSON.stringify({ page: '/p', title: 'x'.repeat(L.trackBodyBytes) });
    const large = await track(server, huge, { 'Content-Type': 'application/json' });
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    // A chunked body (no Content-Length) is cut while it streams.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.url}/api/analytics/track`, {
      method: 'POST',
      headers: { 'User-Agent': CHROME, 'Content-Type': 'text/plain' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await eventCount(server)).toBe(before);
  });

  it('refuses a page that is not a path or an http(s) URL to the URL parser, storing nothing', async () => {
    const before = await eventCount(server);
    for (const page of [
      // Stored whole before (host, credentials, query): the URL parser refuses the host.
      'https://alice:secret@exa mple.com/x?email=alice@example.com',
      // A mailto: once the parser has dropped the leading control character: the address was stored.
      '\u0001mailto:alice@example.com',
      'mail\tto:alice@example.com',
    ]) {
      const res = await track(server, JSON.stringify({ page }), { 'Content-Type': 'text/plain' });
      expect(res.status, JSON.stringify(page)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^page: /);
    }
    expect(await eventCount(server)).toBe(before);
    // Characters are code points: a title of emoji within the limit is accepted.
    const title = '\u{1F600}'.repeat(L.titleLength);
    const res = await track(server, JSON.stringify({ page: '/emoji-title', title }), {
      'Content-Type': 'text/plain',
    });
    expect(res.status).toBe(202);
    const row = await (await stored(server))
      .selectFrom('analytics_events')
      .select('title')
      .where('page', '=', '/emoji-title')
      .executeTakeFirstOrThrow();
    expect(row.title).toBe(title);
  });

  it('records a page whose address is long (an ad click id): its path cut to the limit, UTM tags read', async () => {
    const clickId = 'x'.repeat(2 * L.pageLength);
    const longPath = `/${'p'.repeat(L.pageLength + 100)}`;
    for (const body of [
      { url: `https://agency.example/landing?utm_source=ads&utm_campaign=click-id&gclid=${clickId}` },
      { page: `https://agency.example${longPath}?utm_campaign=click-id` },
      { page: '/landing', referrer: `https://www.bing.com/${'r'.repeat(2 * L.referrerLength)}?q=x` },
    ]) {
      // A visitor of its own: its visit arrives with the campaign.
      const res = await track(server, JSON.stringify(body), {
        'Content-Type': 'text/plain',
        'X-Forwarded-For': '203.0.113.77',
      });
      expect(res.status).toBe(202);
    }
    const rows = await (await stored(server))
      .selectFrom('analytics_events')
      .select(['page', 'referrer', 'utm_campaign'])
      .where((eb) =>
        eb.or([eb('utm_campaign', '=', 'click-id'), eb('referrer', 'like', 'https://www.bing.com/%')]),
      )
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => [r.page.length, r.utm_campaign, r.referrer?.length ?? null])).toEqual([
      ['/landing'.length, 'click-id', null],
      [L.pageLength, 'click-id', null],
      ['/landing'.length, null, L.referrerLength],
    ]);
    const report = await stats(server, '?utm_campaign=click-id');
    expect(report.topPages).toEqual([
      { page: '/landing', count: 2 },
      { page: `/${'p'.repeat(L.pageLength - 1)}`, count: 1 },
    ]);
    expect((await stats(server)).topReferrers).toContainEqual({ referrer: 'bing.com', count: 1 });
  });

  it('masks an address a cut would split: a long page or referrer is masked first, then cut', async () => {
    const page = `/${'q'.repeat(L.pageLength - 8)}/alice@example.com`;
    const referrer = `https://news.example/${'r'.repeat(L.referrerLength - 30)}/alice@example.com`;
    const res = await track(server, JSON.stringify({ page, referrer }), {
      'Content-Type': 'text/plain',
      'X-Forwarded-For': '203.0.113.78',
    });
    expect(res.status).toBe(202);
    const row = await (await stored(server))
      .selectFrom('analytics_events')
      .select(['page', 'referrer'])
      .where('page', 'like', '/qqq%')
      .executeTakeFirstOrThrow();
    expect(row.page.length).toBeLessThanOrEqual(L.pageLength);
    expect(row.referrer!.length).toBeLessThanOrEqual(L.referrerLength);
    expect(`${row.page} ${row.referrer}`).not.toMatch(/alice/);
    // Masking decodes the percent-encoding of a path that held an encoded address: 880 CJK characters are
    // 2 640 bytes, more than an index entry on PostgreSQL takes beside the other columns. The path
    // is cut in bytes, and the event stored on both engines.
    const wide = await track(
      server,
      JSON.stringify({ page: `/${'%E4%B8%80'.repeat(880)}/alice%40example%2Ecom` }),
      {
        'Content-Type': 'text/plain',
        'X-Forwarded-For': '203.0.113.79',
      },
    );
    expect(wide.status).toBe(202);
    const decoded = await (await stored(server))
      .selectFrom('analytics_events')
      .select('page')
      .where('page', 'like', '/\u4e00%')
      .executeTakeFirstOrThrow();
    expect(Buffer.byteLength(decoded.page)).toBeLessThanOrEqual(L.pageLength);
    expect(Buffer.byteLength(decoded.page)).toBeGreaterThan(L.pageLength - 3);
    expect(decoded.page).not.toMatch(/alice/);
  });

  it('looks a public IP up in the local database and never stores the IP', async () => {
    const res = await track(server, JSON.stringify({ page: '/from-us' }), {
      'Content-Type': 'text/plain',
      'X-Forwarded-For': '10.0.0.1, 8.8.8.8',
    });
    expect(res.status).toBe(202);
    const row = await (await stored(server))
      .selectFrom('analytics_events')
      .selectAll()
      .where('page', '=', '/from-us')
      .executeTakeFirstOrThrow();
    expect(row.country).toBe('US');
    expect(row.visitor_hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(row)).not.toContain('8.8.8.8');
    const logs = server.logs.raw.join('');
    expect(logs).not.toContain('8.8.8.8');
    // A private address has no country.
    await track(server, JSON.stringify({ page: '/from-lan' }), {
      'Content-Type': 'text/plain',
      'X-Forwarded-For': '192.168.1.20',
    });
    const lan = await (await stored(server))
      .selectFrom('analytics_events')
      .select('country')
      .where('page', '=', '/from-lan')
      .executeTakeFirstOrThrow();
    expect(lan.country).toBeNull();
  });

  it('drops bots (202, nothing stored) and counts them', async () => {
    const before = await eventCount(server);
    const counted = async () =>
      Number(
        (
          await server.deps.db
            .selectFrom('counters')
            .select('value')
            .where('name', '=', BOTS_COUNTER)
            .executeTakeFirst()
        )?.value ?? 0,
      );
    const bots = await counted();
    for (const ua of ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'curl/8.5.0', '']) {
      const res = await track(server, JSON.stringify({ page: '/bot' }), {
        'Content-Type': 'text/plain',
        'User-Agent': ua,
      });
      expect(res.status).toBe(202);
    }
    await server.deps.flush();
    expect(await eventCount(server)).toBe(before);
    expect(await counted()).toBe(bots + 3);
    expect((await stats(server)).botsDropped).toBe(bots + 3);
  });

  it('counts stats exactly: pages, countries, types, referrers, visitors, series', async () => {
    const base = await stats(server);
    const send = (body: object, ua: string, ip: string) =>
      track(server, JSON.stringify(body), {
        'Content-Type': 'text/plain',
        'User-Agent': ua,
        'X-Forwarded-For': ip,
      });
    const sent = [
      send({ page: '/s/a', referrer: 'https://news.ycombinator.com/item?id=1' }, CHROME, '8.8.4.4'),
      // Another visitor: the same one arriving again within the visit would be no second referral.
      send({ page: '/s/a', referrer: 'https://www.news.ycombinator.com/' }, FIREFOX, '8.8.4.4'),
      send({ page: '/s/b', referrer: 'https://agency.example/s/a' }, CHROME, '8.8.4.4'),
      send({ type: 'signup', page: '/s/b', properties: { plan: 'pro' } }, FIREFOX, '8.8.4.4'),
      send({ page: '/s/c' }, FIREFOX, '81.2.69.142'),
    ];
    for (const res of await Promise.all(sent)) expect(res.status).toBe(202);
    const after = await stats(server, '?limit=100');
    const delta = <T extends { count: number }>(list: T[], key: keyof T, value: unknown, old: T[]) =>
      (list.find((e) => e[key] === value)?.count ?? 0) - (old.find((e) => e[key] === value)?.count ?? 0);
    const before = await stats(server, '?limit=100').then(() => base);
    expect(after.totalEvents - before.totalEvents).toBe(5);
    expect(delta(after.topPages, 'page', '/s/a', before.topPages)).toBe(2);
    expect(delta(after.topPages, 'page', '/s/b', before.topPages)).toBe(2);
    expect(delta(after.topPages, 'page', '/s/c', before.topPages)).toBe(1);
    expect(after.uniquePages - before.uniquePages).toBe(3);
    expect(delta(after.eventTypes, 'type', 'signup', before.eventTypes)).toBe(1);
    expect(delta(after.eventTypes, 'type', 'page_view', before.eventTypes)).toBe(4);
    expect(delta(after.topCountries, 'country', 'US', before.topCountries)).toBe(4);
    expect(delta(after.topCountries, 'country', 'GB', before.topCountries)).toBe(1);
    // www. is folded; the site's own host is internal navigation, not a referrer.
    expect(delta(after.topReferrers, 'referrer', 'news.ycombinator.com', before.topReferrers)).toBe(2);
    expect(after.topReferrers.find((r) => r.referrer === 'agency.example')).toBeUndefined();
    // (8.8.4.4, Chrome), (8.8.4.4, Firefox), (81.2.69.142, Firefox): three new visitors today.
    expect(after.uniqueVisitors - before.uniqueVisitors).toBe(3);
    const today = new Date().toISOString().slice(0, 10);
    expect(after.range.to).toBe(today);
    const last = after.timeseries.at(-1)!;
    expect(last.date).toBe(today);
    expect(last.events).toBe(
      after.totalEvents - after.timeseries.slice(0, -1).reduce((n, d) => n + d.events, 0),
    );
    // Sorted by count, then name, and cut at limit.
    const top1 = await stats(server, '?limit=1');
    expect(top1.topPages).toHaveLength(1);
    expect(top1.topPages[0]!.count).toBe(Math.max(...after.topPages.map((p) => p.count)));
  });

  it('ignores a referrer whose host is longer than a DNS name (its punycode is KBs): 202, stats intact', async () => {
    // 33 labels of 60 distinct CJK characters: 2 000 characters, a ~6 KB host once the URL parser
    // has punycoded it; as a rollup key PostgreSQL refused it (index row too large): a 500, and the
    // batch it rode in lost with it.
    let seed = 7;
    const cjk = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return String.fromCodePoint(0x4e00 + (seed % 20_000));
    };
    const host = Array.from({ length: 33 }, () => Array.from({ length: 60 }, cjk).join('')).join('.');
    const referrer = `https://${host}/`;
    expect(referrer.length).toBeLessThanOrEqual(L.referrerLength);
    expect(new URL(referrer).hostname.length).toBeGreaterThan(4000);
    const res = await track(server, JSON.stringify({ page: '/long-referrer-host', referrer }), {
      'Content-Type': 'text/plain',
    });
    expect(res.status).toBe(202);
    const row = await (await stored(server))
      .selectFrom('analytics_events')
      .select(['referrer', 'referrer_host'])
      .where('page', '=', '/long-referrer-host')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ referrer: null, referrer_host: null });
    for (const r of (await stats(server, '?limit=100')).topReferrers) {
      expect(r.referrer.length).toBeLessThanOrEqual(L.referrerHostLength);
    }
  });

  it('validates the stats range: bad dates, from after to, too long a span, limit bounds', async () => {
    for (const query of [
      'from=2026-02-30',
      'from=2026-02-30T10:00:00Z',
      'from=2026-04-31T00:00Z',
      'from=yesterday',
      'to=2026-13-01',
      'from=2026-01-01T25:00:00Z',
      // Real date-times whose UTC day leaves years 0000–9999: once answered with days like `-000001-12`.
      'from=0000-01-01T00:00%2B01:00&to=0000-01-02',
      'from=9999-12-31T23:00-01:00&to=9999-12-31T23:30-01:00',
      'to=9999-12-31T23:00-01:00',
      'from=2026-05-02&to=2026-05-01',
      `from=2000-01-01&to=2026-01-01`,
      'limit=0',
      `limit=${L.stats.maxTop + 1}`,
      'limit=1e1',
      'limit=0x10',
    ]) {
      const res = await fetch(`${server.url}/api/analytics/stats?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    // A real day of any year, years under 100 included (Date.UTC would read 0001 as 1901).
    const ancient = await fetch(`${server.url}/api/analytics/stats?from=0001-01-01&to=0001-01-31`);
    expect(ancient.status).toBe(200);
    // The last month of year 9999 too (its next month has no YYYY-MM name: once a 500).
    for (const query of ['to=9999-12-31', 'from=9999-11-15&to=9999-12-31', 'from=9999-12-30&to=9999-12-31']) {
      expect((await fetch(`${server.url}/api/analytics/stats?${query}`)).status, query).toBe(200);
    }
    const iso = await stats(server, '?from=2026-01-01T23:30:00-02:00&to=2026-01-05');
    expect(iso.range).toEqual({ from: '2026-01-02', to: '2026-01-05' });
    expect(iso.timeseries.map((d) => d.date)).toEqual([
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
      '2026-01-05',
    ]);
    expect(iso.totalEvents).toBe(0);
  });

  it('lists events newest first, paginated, without visitor hashes', async () => {
    for (const page of ['/list/1', '/list/2', '/list/3']) {
      expect(
        (
          await track(server, JSON.stringify({ page, properties: { n: 1 } }), {
            'Content-Type': 'text/plain',
          })
        ).status,
      ).toBe(202);
      await new Promise((r) => setTimeout(r, 3));
    }
    const res = await fetch(`${server.url}/api/analytics/events?limit=2`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      events: Record<string, unknown>[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    expect(body.events.map((e) => e.page)).toEqual(['/list/3', '/list/2']);
    expect(body.events[0]).toMatchObject({
      type: 'page_view',
      properties: { n: 1 },
      createdAt: expect.any(String),
    });
    expect(body.events[0]).not.toHaveProperty('visitorHash');
    expect(body.pagination.total).toBe(await eventCount(server));
    const next = (await (await fetch(`${server.url}/api/analytics/events?limit=2&page=2`)).json()) as {
      events: { page: string }[];
    };
    expect(next.events[0]!.page).toBe('/list/1');
    for (const query of [`limit=${L.events.maxLimit + 1}`, 'page=1e1', 'limit=0x10', 'page=%205']) {
      expect((await fetch(`${server.url}/api/analytics/events?${query}`)).status, query).toBe(400);
    }
  });

  it('stores no e-mail address or phone number a site put in a page, title, referrer, name or property', async () => {
    const sent = {
      type: 'signup ana.pii@example.com',
      page: 'https://agency.example/account/ana.pii@example.com?x=1',
      referrer: 'https://mail.example/inbox/ana.pii%40example.com',
      title: 'Welcome Ana (+34 611 222 333)',
      properties: {
        email: 'ana.pii@example.com',
        phone: '+34 611 222 333',
        plan: 'pro',
        n: 2,
        // A property named after a person, and an address encoded twice.
        'ana.pii@example.com': 'signed up',
        next: '/u/ana.pii%2540example.com',
      },
      sessionId: 'ana.pii@example.com',
    };
    const res = await track(server, JSON.stringify(sent), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(202);
    const events = (await (await fetch(`${server.url}/api/analytics/events?limit=1`)).json()) as {
      events: Record<string, unknown>[];
    };
    expect(events.events[0]).toMatchObject({
      type: 'signup [email]',
      page: '/account/[email]',
      referrer: 'https://mail.example/inbox/[email]',
      title: 'Welcome Ana ([phone])',
      properties: {
        email: '[email]',
        phone: '[phone]',
        plan: 'pro',
        n: 2,
        '[email]': 'signed up',
        next: '/u/[email]',
      },
    });
    const everything = JSON.stringify([
      events,
      await stats(server, '?limit=100'),
      await (await fetch(`${server.url}/api/analytics/events?limit=100`)).text(),
    ]);
    for (const needle of ['ana.pii', '611 222 333']) expect(everything).not.toContain(needle);
    expect(everything).toContain('/account/[email]');
  });

  it('masks contact details in UTM tags and in percent-encoded paths, in every report and export', async () => {
    // A newsletter tool tags its links with the recipient; a path carries a number with spaces.
    const sent = [
      {
        page: '/offer?utm_source=utm.pii@example.com&utm_medium=%2B57%20300%20123%204567&utm_campaign=Utm.Pii%40Example.COM',
      },
      { page: '/offer?ref=utm.pii@example.com' },
      { page: '/call/+57 310 777 8899' },
      { page: '/u/utm.pii%2Eq%40example%2Eorg', referrer: 'https://a.example/call/+57 310 777 8899' },
      { page: '/u/utm.pii＠example.org' },
    ];
    // Each from its own visitor: a visit's UTM tags are its first event's.
    for (const [i, body] of sent.entries()) {
      const headers = { 'Content-Type': 'text/plain', 'X-Forwarded-For': `198.51.100.${60 + i}` };
      expect((await track(server, JSON.stringify(body), headers)).status).toBe(202);
    }
    const report = (await stats(server, '?limit=100')) as Awaited<ReturnType<typeof stats>> & {
      utmSources: { utmSource: string }[];
    };
    expect(report.utmSources.map((s) => s.utmSource)).toContain('[email]');
    expect(report.topPages.map((p) => p.page)).toEqual(
      expect.arrayContaining(['/call/[phone]', '/u/[email]']),
    );
    const headers = { 'X-Admin-Api-Key': ADMIN_KEY };
    const everything = JSON.stringify([
      report,
      await (await fetch(`${server.url}/api/analytics/events?limit=100`)).text(),
      ...(await Promise.all(
        ['events', 'sources', 'utmSources', 'utmMediums', 'utmCampaigns', 'pages'].map(async (r) =>
          (await fetch(`${server.url}/api/analytics/export?format=csv&report=${r}`, { headers })).text(),
        ),
      )),
    ]);
    for (const needle of ['utm.pii', 'Utm.Pii', '300 123 4567', '310 777 8899', '310%20777', '123%204567']) {
      expect(everything).not.toContain(needle);
    }
  });
});

describe('analytics behind Cloudflare (TRUST_PROXY=cloudflare)', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'cloudflare' } });
  });
  afterAll(() => server.close());

  it('takes the country from CF-IPCountry, else looks up CF-Connecting-IP', async () => {
    await track(server, JSON.stringify({ page: '/cf-header' }), {
      'Content-Type': 'text/plain',
      'CF-IPCountry': 'de',
      'CF-Connecting-IP': '8.8.8.8',
    });
    await track(server, JSON.stringify({ page: '/cf-lookup' }), {
      'Content-Type': 'text/plain',
      'CF-IPCountry': 'XX',
      'CF-Connecting-IP': '8.8.8.8',
    });
    const rows = await (await stored(server))
      .selectFrom('analytics_events')
      .select(['page', 'country'])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.page, r.country]))).toEqual({
      '/cf-header': 'DE',
      '/cf-lookup': 'US',
    });
  });

  it('documents every body type the track route accepts in /openapi.json', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, unknown> } } }>;
    };
    expect(Object.keys(doc.paths['/api/analytics/track']?.post?.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'text/plain',
    ]);
  });
});

describe('analytics rate limit', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'xff', ANALYTICS_TRACK_RATE_LIMIT: '3' } });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After past the per-IP limit, and counts hits in the shared table', async () => {
    const send = (ip: string) =>
      track(server, JSON.stringify({ page: '/rl' }), { 'Content-Type': 'text/plain', 'X-Forwarded-For': ip });
    for (let i = 0; i < 3; i++) expect((await send('203.0.113.9')).status).toBe(202);
    const limited = await send('203.0.113.9');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send('203.0.113.10')).status).toBe(202);
    await server.deps.flush();
    const row = await server.deps.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', await server.deps.rateLimiter.storedKey('analytics:203.0.113.9'))
      .executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(3);
    // The raw IP is never stored, not even in the rate limiter's table.
    const keys = await server.deps.db.selectFrom('rate_limits').select('key').execute();
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(key).not.toMatch(/203\.0\.113/);
  });
});
