import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  type LeadsWorld,
  leadsApp,
  postLead,
  startWorld,
  submission,
  worldEnv,
} from '../../../test/support/features/leads.ts';
import type { TestContext } from '../../../test/support/test-app.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';

const engines = await testEngines();

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

let world: LeadsWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

describe.each(engines)('leads and contact-us messages as conversions on %s', (engine) => {
  let app: TestContext;
  beforeAll(async () => {
    app = await leadsApp(engine, worldEnv(world, { SITE_ORIGIN: 'https://agency.example' }));
  });
  afterAll(() => app.close());

  const client = (ip: string, ua: string) => ({ 'x-forwarded-for': ip, 'user-agent': ua });
  const track = (headers: Record<string, string>, body: Record<string, unknown>) =>
    app.app.request('/api/analytics/track', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...headers },
      body: JSON.stringify(body),
    });
  const stats = async (query = '') => {
    const response = await app.app.request(`/api/analytics/stats${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      conversions: number;
      conversionRate: number;
      visits: number;
      eventTypes: { type: string; count: number }[];
      topReferrers: { referrer: string; count: number }[];
      conversionsBy: Record<'bySource' | 'byCampaign' | 'byEntryPage', Record<string, unknown>[]>;
    };
  };
  const contact = (headers: Record<string, string>, analyticsContext: unknown) =>
    app.app.request('/api/support/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        name: 'Ana García',
        email: 'ana.conversion@example.com',
        company: 'Hotel Sol',
        subject: 'A new booking site',
        message:
          'We would like a new website for our hotel, with online booking and a gallery. Budget approved.',
        recaptchaToken: 'ok-token',
        analyticsContext,
      }),
    });

  it('a lead sent from a tracked visit is a `lead` conversion of that visit, by source, campaign and entry page', async () => {
    const visitor = client('198.51.100.7', CHROME);
    expect(
      (
        await track(visitor, {
          url: 'https://agency.example/landing?utm_source=linkedin&utm_campaign=spring',
          referrer: 'https://www.linkedin.com/feed',
        })
      ).status,
    ).toBe(202);
    expect((await track(visitor, { url: 'https://agency.example/wizard' })).status).toBe(202);
    // Another visit that does not convert.
    expect((await track(client('198.51.100.8', CHROME), { url: 'https://agency.example/blog' })).status).toBe(
      202,
    );

    const body = submission({ analyticsContext: { url: 'https://agency.example/wizard', referrer: null } });
    const response = await postLead(app, body, { ip: '198.51.100.7', headers: { 'user-agent': CHROME } });
    expect(response.status).toBe(200);
    // A repeat of the same submission (a double click) is no second conversion.
    expect(
      (await postLead(app, body, { ip: '198.51.100.7', headers: { 'user-agent': CHROME } })).status,
    ).toBe(200);

    const report = await stats();
    expect(report).toMatchObject({ visits: 2, conversions: 1, conversionRate: 50 });
    expect(report.eventTypes).toContainEqual({ type: 'lead', count: 1 });
    expect(report.conversionsBy.bySource).toMatchObject([
      { source: 'LinkedIn', conversions: 1, conversionRate: 100 },
    ]);
    expect(report.conversionsBy.byCampaign).toMatchObject([{ utmCampaign: 'spring', conversions: 1 }]);
    expect(report.conversionsBy.byEntryPage).toMatchObject([{ page: '/landing', conversions: 1 }]);
    expect((await stats('?utm_campaign=spring')).conversions).toBe(1);
    expect((await stats('?page=/blog')).conversions).toBe(0);

    // Nothing from the form enters analytics: the conversion says which form, no more.
    const rows = await app.deps.db
      .selectFrom('analytics_events')
      .selectAll()
      .where('type', '=', 'lead')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ page: '/wizard', properties: '{"form":"lead"}', title: null });
    expect(JSON.stringify(rows)).not.toMatch(/Ana|Hotel|@example\.com/);
  });

  it('a contact-us message with the context as JSON text (the hidden field) starts a visit from it when none is open', async () => {
    const before = await stats();
    const response = await contact(
      client('198.51.100.9', SAFARI),
      JSON.stringify({
        url: 'https://agency.example/contact?utm_campaign=autumn',
        referrer: 'https://www.bing.com/',
      }),
    );
    expect(response.status).toBe(200);
    const report = await stats();
    expect(report.conversions).toBe(before.conversions + 1);
    expect(report.visits).toBe(before.visits + 1);
    expect(report.conversionsBy.byCampaign).toContainEqual(
      expect.objectContaining({ utmCampaign: 'autumn', conversions: 1 }),
    );
    expect(report.conversionsBy.bySource).toContainEqual(
      expect.objectContaining({ source: 'Bing', conversions: 1 }),
    );
    const stored = await app.deps.db
      .selectFrom('analytics_events')
      .select(['properties', 'page'])
      .where('type', '=', 'lead')
      .where('page', '=', '/contact')
      .execute();
    expect(stored).toEqual([{ properties: '{"form":"contact"}', page: '/contact' }]);
  });

  it("a contact form's native post with the tracker's hidden field is a conversion; spam is none", async () => {
    const before = await stats();
    const form = (message: string, extra: Record<string, string> = {}) =>
      app.app.request('/api/contact', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html',
          ...client('198.51.100.23', CHROME),
        },
        body: new URLSearchParams({
          name: 'Ana García',
          email: 'ana.form@example.com',
          subject: 'A new booking site',
          message,
          analyticsContext: JSON.stringify({
            url: 'https://agency.example/contact-us?utm_campaign=winter',
            referrer: 'https://duckduckgo.com/',
          }),
          ...extra,
        }).toString(),
      });
    const genuine = await form(
      'We would like a new website for our hotel, with online booking and a gallery. Budget approved.',
    );
    expect(genuine.status).toBe(200);
    const report = await stats();
    expect(report.conversions).toBe(before.conversions + 1);
    expect(report.conversionsBy.byCampaign).toContainEqual(
      expect.objectContaining({ utmCampaign: 'winter', conversions: 1 }),
    );
    // The honeypot filled in: stored as spam, so no conversion.
    const spam = await form('We would like a new website for our hotel.', { _gotcha: 'bot' });
    expect(spam.status).toBe(200);
    expect((await stats()).conversions).toBe(before.conversions + 1);
  });

  it('no context, a malformed one, or a bot: the form succeeds and no conversion is recorded', async () => {
    const before = (await stats()).conversions;
    expect((await postLead(app, submission(), { headers: { 'user-agent': CHROME } })).status).toBe(200);
    expect(
      (
        await postLead(app, submission({ analyticsContext: '{not json' }), {
          headers: { 'user-agent': CHROME },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await postLead(app, submission({ analyticsContext: { url: 'mailto:ana@example.com' } }), {
          headers: { 'user-agent': CHROME },
        })
      ).status,
    ).toBe(200);
    // A context the track route would refuse is the client's input: logged, not as a warning.
    expect(
      app.logs.lines
        .filter((l) => l.msg === 'analytics conversion not recorded')
        .map((l) => [l.level, (l.err as { type?: string } | undefined)?.type]),
    ).toEqual([[30, 'AnalyticsRefusal']]);
    expect(
      (
        await postLead(app, submission({ analyticsContext: { url: '/wizard' } }), {
          headers: { 'user-agent': 'curl/8.5.0' },
        })
      ).status,
    ).toBe(200);
    expect((await stats()).conversions).toBe(before);
  });

  it('a malformed context of any kind is ignored on every form: the form is sent, no conversion recorded', async () => {
    const before = (await stats()).conversions;
    const tooLong = `https://agency.example/offer?fbclid=${'x'.repeat(L.urlLength)}`;
    const malformed: unknown[] = [
      null,
      5,
      true,
      [],
      {},
      { url: '' },
      { url: null },
      { referrer: 'https://www.google.com/' },
      { url: 'https://agency.example/offer', referrer: 5 },
      { url: tooLong },
      JSON.stringify({ url: tooLong }),
      'x'.repeat(2 * L.urlLength + 65),
    ];
    for (const [i, analyticsContext] of malformed.entries()) {
      const headers = client(`198.51.100.${40 + i}`, CHROME);
      const lead = await postLead(app, submission({ analyticsContext }), { headers });
      const support = await contact(headers, analyticsContext);
      const message = await app.app.request('/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          name: 'Ana García',
          email: `ana.contact.${i}@example.com`,
          subject: 'A new booking site',
          message: 'We would like a new website for our hotel, with online booking and a gallery.',
          recaptchaToken: 'ok-token',
          analyticsContext,
        }),
      });
      expect([i, lead.status, support.status, message.status]).toEqual([i, 200, 200, 201]);
    }
    expect((await stats()).conversions).toBe(before);
  });

  it('a page address with a long click id (over the path limit) records its conversion on its path', async () => {
    const before = (await stats('?utm_campaign=longclick')).conversions;
    const url = `https://agency.example/offer?utm_campaign=longclick&gclid=${'x'.repeat(2 * L.pageLength)}`;
    const referrer = `https://news.example/${'a'.repeat(2 * L.referrerLength)}?q=1`;
    const visitor = client('198.51.100.12', CHROME);
    expect((await contact(visitor, { url, referrer })).status).toBe(200);
    expect((await contact(client('198.51.100.13', CHROME), JSON.stringify({ url }))).status).toBe(200);
    const report = await stats('?utm_campaign=longclick');
    expect(report.conversions).toBe(before + 2);
    expect(report.conversionsBy.byEntryPage).toContainEqual(expect.objectContaining({ page: '/offer' }));
    const stored = await app.deps.db
      .selectFrom('analytics_events')
      .select(['page', 'referrer', 'utm_campaign'])
      .where('utm_campaign', '=', 'longclick')
      .execute();
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({ page: '/offer', utm_campaign: 'longclick' });
    const referrers = stored.map((row) => row.referrer).filter((r) => r !== null);
    expect(referrers).toEqual([
      `https://news.example/${'a'.repeat(L.referrerLength - 'https://news.example/'.length)}`,
    ]);
  });

  it('a conversion is no second referral: the referrer its form carries counts once, filtered or not', async () => {
    const visitor = client('198.51.100.11', CHROME);
    const arrival = {
      url: 'https://agency.example/offer?utm_campaign=solstice',
      referrer: 'https://duckduckgo.com/',
    };
    expect((await track(visitor, arrival)).status).toBe(202);
    expect((await contact(visitor, arrival)).status).toBe(200);
    for (const query of ['', '?utm_campaign=solstice']) {
      const report = await stats(query);
      expect(report.topReferrers, query).toContainEqual({ referrer: 'duckduckgo.com', count: 1 });
    }
    expect(await stats('?utm_campaign=solstice')).toMatchObject({ visits: 1, conversions: 1 });
  });

  it('a beacon cannot claim a conversion: `lead` is reserved for the forms', async () => {
    const response = await track(client('198.51.100.10', CHROME), { type: 'lead', page: '/x' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /reserved for conversions, recorded by POST \/api\/leads, POST \/api\/contact and POST \/api\/support\/send/,
    );
    // Plausible's payload spelling is refused too.
    const plausible = await track(client('198.51.100.10', CHROME), {
      n: 'lead',
      u: 'https://agency.example/x',
    });
    expect(plausible.status).toBe(400);
  });

  it('while folds fail with the inbox at ANALYTICS_INBOX_MAX_EVENTS: track answers 503, forms are sent without a conversion; both resume after', async () => {
    const full = await leadsApp(
      engine,
      worldEnv(world, { SITE_ORIGIN: 'https://agency.example', ANALYTICS_INBOX_MAX_EVENTS: '1' }),
    );
    try {
      const db = full.database.handle.db;
      const request = (path: string, body: Record<string, unknown>, contentType = 'text/plain') =>
        full.app.request(path, {
          method: 'POST',
          headers: { 'content-type': contentType, ...client('198.51.100.60', CHROME) },
          body: JSON.stringify(body),
        });
      const page = { url: 'https://agency.example/offer?utm_campaign=full' };
      const inboxRows = async () =>
        Number(
          (
            await db
              .selectFrom('analytics_inbox')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      await sql`alter table analytics_events rename to analytics_events_away`.execute(db);
      expect((await request('/api/analytics/track', page)).status).toBe(202);
      // A read folds first: the fold fails (logged), the read answers from what is folded.
      expect((await full.app.request('/api/analytics/stats')).status).toBe(200);
      const refused = await request('/api/analytics/track', page);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe(String(L.inboxFullRetryAfterS));
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('NOT_CONFIGURED');
      const form = await full.app.request('/api/support/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...client('198.51.100.60', CHROME) },
        body: JSON.stringify({
          name: 'Ana García',
          email: 'ana.full@example.com',
          subject: 'A new booking site',
          message: 'We would like a new website for our hotel, with online booking and a gallery.',
          recaptchaToken: 'ok-token',
          analyticsContext: page,
        }),
      });
      expect(form.status).toBe(200);
      expect(await inboxRows()).toBe(1);
      expect(full.logs.lines.filter((l) => /inbox (is )?full/.test(String(l.msg)))).toMatchObject([
        { level: 50, msg: expect.stringMatching(/^analytics inbox full while folds fail/) },
        {
          level: 40,
          msg: 'analytics conversion not recorded: the inbox is full while folds fail',
          form: 'contact',
        },
      ]);

      await sql`alter table analytics_events_away rename to analytics_events`.execute(db);
      expect((await full.app.request('/api/analytics/stats')).status).toBe(200);
      expect((await request('/api/analytics/track', page)).status).toBe(202);
    } finally {
      await full.close();
    }
  });
});
