import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  ADMIN_ENV,
  ADMIN_KEY,
  CHAT_KEY,
  insertTestLead,
  seedAnalytics,
  submission,
  XSS_COMPANY,
  XSS_NAME,
} from '../../../test/support/features/admin.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/index.ts';
import { saveContact } from '../contact/store.ts';
import { ADMIN_LIMITS, ADMIN_PAGE } from './limits.ts';

const engines = await testEngines();
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 9, 1, 12); // 2026-10-01 12:00 UTC

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

describe.each(engines)('admin API on %s', (engine) => {
  let ctx: TestContext;
  const ids: Record<string, string> = {};

  const get = (path: string, key: string | null = ADMIN_KEY) =>
    ctx.app.request(path, { headers: key === null ? {} : { 'X-Admin-Api-Key': key } });
  const getJson = async (path: string): Promise<Json> => {
    const res = await get(path);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  const names = (body: Json) => body.leads.map((l: Json) => l.name);

  beforeAll(async () => {
    ctx = await createTestApp({ engine, env: ADMIN_ENV });
    const db = ctx.deps.db;
    ids.ana = await insertTestLead(db, {
      name: 'Ana García',
      email: 'ana@acme.example',
      company: 'Acme S.A.S.',
      createdAt: BASE,
      prototypeKind: 'landing',
    });
    ids.bob = await insertTestLead(db, {
      name: 'bob smith',
      email: 'bob@beta.example',
      company: null,
      createdAt: BASE + DAY,
      status: 'completed',
      prototypeKind: 'application',
    });
    ids.carla = await insertTestLead(db, {
      name: 'Carla Vendor',
      email: 'carla@seo.example',
      company: 'SEO 100% Kings',
      createdAt: BASE + 2 * DAY,
      status: 'vendor',
      classification: 'vendor',
    });
    ids.dan = await insertTestLead(db, {
      name: 'Dan Spam',
      email: 'dan@spam.example',
      company: 'under_score',
      createdAt: BASE + 3 * DAY,
      status: 'spam',
      classification: 'spam',
    });
    ids.xss = await insertTestLead(db, {
      name: XSS_NAME,
      email: 'x@evil.example',
      company: XSS_COMPANY,
      createdAt: BASE + 4 * DAY,
    });
  });
  afterAll(() => ctx?.close());

  describe('authentication', () => {
    const routes: [string, string][] = [
      ['GET', '/admin/api/summary'],
      ['GET', '/admin/api/leads'],
      ['GET', '/admin/api/leads/LEAD'],
      ['GET', '/admin/api/outbox'],
      ['GET', '/admin/api/contact'],
      ['GET', '/admin/api/queues'],
      ['POST', `/admin/api/queues/${EMAIL_QUEUE}/retry`],
      ['GET', '/admin/api/analytics'],
    ];
    it.each(routes)(
      '%s %s: 401 without the key, 401 with the chat key, 200 with the admin key',
      async (method, path) => {
        const url = path.replace('LEAD', ids.ana ?? '');
        const send = (headers: Record<string, string>) => ctx.app.request(url, { method, headers });
        const refused: Record<string, string>[] = [
          {},
          { 'X-Admin-Api-Key': CHAT_KEY },
          { 'X-Admin-Api-Key': '' },
          { 'X-Chat-Api-Key': ADMIN_KEY },
        ];
        for (const headers of refused) {
          const res = await send(headers);
          expect(res.status).toBe(401);
          const body: Json = await res.json();
          expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
          expect(JSON.stringify(body)).not.toContain('Ana');
        }
        expect((await send({ 'X-Admin-Api-Key': ADMIN_KEY })).status).toBe(200);
      },
    );

    it('an unset ADMIN_API_SECRET rejects every request', async () => {
      const bare = await createTestApp({ engine, env: { CHAT_API_SECRET: CHAT_KEY } });
      try {
        for (const key of ['', 'undefined', ADMIN_KEY]) {
          const res = await bare.app.request('/admin/api/leads', { headers: { 'X-Admin-Api-Key': key } });
          expect(res.status).toBe(401);
        }
      } finally {
        await bare.close();
      }
    });

    it('an unknown /admin/api path answers 401 before revealing anything, 404 with the key', async () => {
      expect((await get('/admin/api/secrets', null)).status).toBe(401);
      expect((await get('/admin/api/secrets')).status).toBe(404);
    });
  });

  describe('the HTML shell', () => {
    it('carries no lead data, no count and no secret, with strict headers', async () => {
      const res = await get('/admin/leads', null);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      for (const secret of [
        'Ana García',
        'acme.example',
        'bob smith',
        'evil.example',
        XSS_NAME,
        ADMIN_KEY,
        CHAT_KEY,
        ids.ana as string,
      ]) {
        expect(html.toLowerCase()).not.toContain(secret.toLowerCase());
      }
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
      expect(html).not.toMatch(/\sstyle=/); // no inline style attributes
      expect(html).not.toMatch(/\son[a-z]+=/i); // no inline handlers
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('every /admin answer carries the strict headers, whichever feature gives it, errors included', async () => {
      for (const [path, key, status] of [
        ['/admin/leads', null, 200],
        ['/admin/api/summary', ADMIN_KEY, 200],
        ['/admin/api/privacy', ADMIN_KEY, 200],
        ['/admin/api/privacy/audit', ADMIN_KEY, 200],
        ['/admin/api/personal-data?email=nobody%40example.com', ADMIN_KEY, 404],
        ['/admin/api/personal-data?email=nobody%40example.com', null, 401],
        ['/admin/api/no-such-thing', ADMIN_KEY, 404],
      ] as const) {
        const res = await get(path, key);
        expect(res.status, path).toBe(status);
        await res.arrayBuffer();
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options'), path).toBe('DENY');
        expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
        expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
        expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
        expect(res.headers.get('permissions-policy'), path).toContain('camera=()');
        if (path.startsWith('/admin/api/')) expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
    });

    it('serves its scripts and styles as static files, and nothing else', async () => {
      const js = await get('/admin/static/admin.js', null);
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(js.headers.get('content-security-policy')).toContain("default-src 'none'");
      const etag = js.headers.get('etag') ?? '';
      const again = await ctx.app.request('/admin/static/admin.js', { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect((await get('/admin/static/admin.css', null)).headers.get('content-type')).toMatch(/^text\/css/);
      for (const path of [
        '/admin/static/query.ts',
        '/admin/static/..%2Froutes.ts',
        '/admin/static/admin.html',
        '/admin/static/',
      ]) {
        expect((await get(path, null)).status).toBe(404);
      }
      const redirect = await get('/admin', null);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('/admin/leads');
    });

    it('API answers are never cached', async () => {
      expect((await get('/admin/api/leads')).headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('GET /admin/api/leads', () => {
    it('lists newest first with the documented fields', async () => {
      const body = await getJson('/admin/api/leads');
      expect(body).toMatchObject({
        success: true,
        total: 5,
        page: 1,
        limit: ADMIN_PAGE.defaultLimit,
        totalPages: 1,
        sort: 'createdAt',
        order: 'desc',
      });
      expect(names(body)).toEqual([XSS_NAME, 'Dan Spam', 'Carla Vendor', 'bob smith', 'Ana García']);
      const ana = body.leads.find((l: Json) => l.id === ids.ana);
      expect(ana).toMatchObject({
        status: 'new',
        classification: 'lead',
        classifiedBy: 'builtin',
        email: 'ana@acme.example',
        company: 'Acme S.A.S.',
        prototypeKind: 'landing',
        pipedrive: null,
        previewUrl: `/api/leads/${ids.ana}/preview`,
        createdAt: new Date(BASE).toISOString(),
      });
      expect(body.leads.find((l: Json) => l.id === ids.carla).previewUrl).toBeNull();
    });

    it('filters by status and classification (comma-separated)', async () => {
      expect(names(await getJson('/admin/api/leads?status=completed'))).toEqual(['bob smith']);
      expect(names(await getJson('/admin/api/leads?classification=vendor,spam'))).toEqual([
        'Dan Spam',
        'Carla Vendor',
      ]);
      expect(names(await getJson('/admin/api/leads?status=new&classification=lead'))).toEqual([
        XSS_NAME,
        'Ana García',
      ]);
    });

    it('searches name, e-mail and company case-insensitively; % and _ match literally; an id matches', async () => {
      expect(names(await getJson('/admin/api/leads?q=ACME'))).toEqual(['Ana García']);
      expect(names(await getJson('/admin/api/leads?q=BOB%20SMITH'))).toEqual(['bob smith']);
      expect(names(await getJson('/admin/api/leads?q=seo.example'))).toEqual(['Carla Vendor']);
      expect(names(await getJson('/admin/api/leads?q=100%25'))).toEqual(['Carla Vendor']);
      expect(names(await getJson('/admin/api/leads?q=r_s'))).toEqual(['Dan Spam']);
      expect(names(await getJson('/admin/api/leads?q=%25'))).toEqual(['Carla Vendor']);
      expect(names(await getJson(`/admin/api/leads?q=${ids.bob}`))).toEqual(['bob smith']);
      expect(names(await getJson(`/admin/api/leads?q=${encodeURIComponent('<script>')}`))).toEqual([
        XSS_NAME,
      ]);
      expect((await getJson('/admin/api/leads?q=nobody-like-this')).total).toBe(0);
    });

    it('ignores the case of accented letters too: as stored, in capitals, in small letters', async () => {
      // SQLite's own lower() folds ASCII only: "ÁLVARO" stays "Álvaro" there, so a search lower-cased in
      // JavaScript ("álvaro") missed the lead even when typed exactly as stored.
      const id = await insertTestLead(ctx.deps.db, {
        name: 'ÁLVARO NÚÑEZ',
        email: 'alvaro@tilde.example',
        company: 'ÑANDÚ Ltda',
        createdAt: BASE - DAY,
      });
      try {
        const search = async (q: string) =>
          names(await getJson(`/admin/api/leads?q=${encodeURIComponent(q)}`));
        expect(await search('ÁLVARO NÚÑEZ')).toEqual(['ÁLVARO NÚÑEZ']);
        expect(await search('ÑANDÚ')).toEqual(['ÁLVARO NÚÑEZ']);
        expect(await search('álvaro núñez')).toEqual(['ÁLVARO NÚÑEZ']);
        expect(await search('ñandú')).toEqual(['ÁLVARO NÚÑEZ']);
        expect(await search('ANA GARCÍA')).toEqual(['Ana García']);
      } finally {
        await ctx.deps.db.deleteFrom('leads').where('id', '=', id).execute();
      }
    });

    it('filters by a date range: dates are whole UTC days, date-times exact', async () => {
      expect(names(await getJson('/admin/api/leads?from=2026-10-02&to=2026-10-03'))).toEqual([
        'Carla Vendor',
        'bob smith',
      ]);
      expect(names(await getJson('/admin/api/leads?to=2026-10-01'))).toEqual(['Ana García']);
      const from = new Date(BASE + DAY).toISOString();
      const to = new Date(BASE + 2 * DAY - 1).toISOString();
      expect(names(await getJson(`/admin/api/leads?from=${from}&to=${to}`))).toEqual(['bob smith']);
      expect(
        names(await getJson('/admin/api/leads?from=2026-10-02T10:00:00%2B02:00&to=2026-10-02T12:00:00Z')),
      ).toEqual(['bob smith']);
    });

    it('a date-time from and a date to on the same day: to still includes that whole day', async () => {
      expect(names(await getJson('/admin/api/leads?from=2026-10-02T10:00:00Z&to=2026-10-02'))).toEqual([
        'bob smith',
      ]);
    });

    it('sorts by name, company and status in both directions', async () => {
      expect(names(await getJson('/admin/api/leads?sort=name&order=asc'))).toEqual([
        XSS_NAME,
        'Ana García',
        'bob smith',
        'Carla Vendor',
        'Dan Spam',
      ]);
      expect(names(await getJson('/admin/api/leads?sort=createdAt&order=asc'))[0]).toBe('Ana García');
      expect(names(await getJson('/admin/api/leads?sort=status&order=desc'))[0]).toBe('Carla Vendor');
    });

    it('paginates, and caps a huge page size instead of failing', async () => {
      const first = await getJson('/admin/api/leads?limit=2&page=1');
      const third = await getJson('/admin/api/leads?limit=2&page=3');
      expect(first).toMatchObject({ total: 5, limit: 2, totalPages: 3 });
      expect(names(first)).toEqual([XSS_NAME, 'Dan Spam']);
      expect(names(third)).toEqual(['Ana García']);
      expect((await getJson('/admin/api/leads?limit=2&page=9')).leads).toEqual([]);
      const huge = await getJson('/admin/api/leads?limit=1000000000');
      expect(huge.limit).toBe(ADMIN_PAGE.maxLimit);
    });

    it.each([
      ['status=bogus', 'status'],
      ['classification=lead,nope', 'classification'],
      ['from=2026-13-01', 'from'],
      ['from=2026-02-30', 'from'],
      ['from=2026-02-30T10:00:00Z', 'from'],
      ['to=2026-04-31T23:00%2B02:00', 'to'],
      ['to=yesterday', 'to'],
      ['from=2026-10-05&to=2026-10-01', 'from'],
      ['sort=password', 'sort'],
      ['order=sideways', 'order'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=-5', 'limit'],
      ['limit=2.5', 'limit'],
      ['page=1e1', 'page'],
      ['page=0x10', 'page'],
      ['limit=%2B5', 'limit'],
      [`q=${'x'.repeat(ADMIN_LIMITS.search + 1)}`, 'q'],
    ])('rejects %s with a 400 envelope naming %s', async (query, field) => {
      const res = await get(`/admin/api/leads?${query}`);
      expect(res.status).toBe(400);
      const body: Json = await res.json();
      expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(body.error.message).toContain(field);
    });
  });

  describe("one lead's record, the outbox and the queues", () => {
    let leadId: string;

    beforeAll(async () => {
      const res = await ctx.app.request('/api/leads', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Chat-Api-Key': CHAT_KEY },
        body: JSON.stringify(
          submission({ name: 'Elena Detail', email: 'elena@detail.example', company: 'Detail Ltd' }),
        ),
      });
      expect(res.status).toBe(200);
      leadId = ((await res.json()) as Json).leadId;
      await ctx.deps.worker.drain(EMAIL_QUEUE);
    });

    it('returns the wizard answers, classification and who decided, CRM outcome, prototype and e-mails', async () => {
      const body = await getJson(`/admin/api/leads/${leadId}`);
      expect(body.lead).toMatchObject({
        id: leadId,
        name: 'Elena Detail',
        email: 'elena@detail.example',
        company: 'Detail Ltd',
        phone: '+57 300 000 0000',
        classification: 'lead',
        classifiedBy: 'builtin',
        trusted: true,
        steps: { service: 'build-website', features: ['booking', 'payments'], goal: 'More bookings online' },
      });
      expect(body.lead.classificationReason).toEqual(expect.any(String));
      expect(body.crm.outcome).toMatchObject({ success: false, leadId: null });
      // A trusted (chat) submission generates its prototype before answering (backend-api.md rule 4).
      expect(body.prototype).toEqual({
        kind: 'landing',
        state: 'completed',
        previewUrl: `/api/leads/${leadId}/preview`,
      });
      expect(body.emails.length).toBeGreaterThanOrEqual(2);
      for (const email of body.emails) {
        expect(email.idempotencyKey.startsWith(`${leadId}:`)).toBe(true);
        expect(email).toMatchObject({ transport: 'outbox', status: 'stored', attempts: 1 });
        expect(email.text.length).toBeGreaterThan(0);
      }
      expect(body.emails.flatMap((e: Json) => e.to)).toContain('elena@detail.example');
      // Another lead's detail carries none of these e-mails.
      expect((await getJson(`/admin/api/leads/${ids.ana}`)).emails).toEqual([]);
    });

    it('404 for an unknown lead, 400 for an oversized id', async () => {
      const res = await get('/admin/api/leads/00000000-0000-4000-8000-000000000000');
      expect(res.status).toBe(404);
      expect(((await res.json()) as Json).error.code).toBe('NOT_FOUND');
      expect((await get(`/admin/api/leads/${'a'.repeat(65)}`)).status).toBe(400);
    });

    it('the outbox lists messages with their delivery state and counts', async () => {
      const body = await getJson('/admin/api/outbox');
      expect(body).toMatchObject({ success: true, transport: 'outbox', page: 1 });
      expect(body.counts.stored).toBeGreaterThanOrEqual(2);
      expect(body.messages[0]).toMatchObject({ status: 'stored', transport: 'outbox' });
      expect(body.messages[0].text.length).toBeLessThanOrEqual(ADMIN_LIMITS.bodyPreview + 1);
      expect((await getJson('/admin/api/outbox?status=failed')).messages).toEqual([]);
      expect((await getJson('/admin/api/outbox?limit=99999')).limit).toBe(ADMIN_LIMITS.outboxMaxLimit);
      expect((await get('/admin/api/outbox?status=lost')).status).toBe(400);
    });

    it('lists the contact form submissions newest first, page by page', async () => {
      for (const n of [1, 2, 3]) {
        const input = {
          name: `Sender ${n}`,
          email: `sender${n}@contact.example`,
          subject: `Question ${n}`,
          message: `Message ${n}`,
        };
        await saveContact(ctx.deps.db, input, BASE + n * 1000);
      }
      const first = await getJson('/admin/api/contact?limit=2');
      expect(first).toMatchObject({ success: true, total: 3, page: 1, limit: 2, totalPages: 2 });
      expect(first.submissions.map((s: Json) => s.subject)).toEqual(['Question 3', 'Question 2']);
      expect(first.submissions[0]).toEqual({
        id: expect.stringMatching(/^contact_/),
        name: 'Sender 3',
        email: 'sender3@contact.example',
        subject: 'Question 3',
        message: 'Message 3',
        status: 'new',
        createdAt: new Date(BASE + 3000).toISOString(),
      });
      const second = await getJson('/admin/api/contact?limit=2&page=2');
      expect(second.submissions.map((s: Json) => s.subject)).toEqual(['Question 1']);
      expect((await getJson('/admin/api/contact?limit=99999')).limit).toBe(ADMIN_PAGE.maxLimit);
      expect((await get('/admin/api/contact?page=0')).status).toBe(400);
    });

    it('shows the queues and retries dead jobs, one or all', async () => {
      const jobs = ctx.deps.jobs;
      const kill = async (key: string) => {
        await jobs.enqueue(
          EMAIL_QUEUE,
          { idempotencyKey: key, message: null },
          { idempotencyKey: key, maxAttempts: 1 },
        );
        const claimed = await jobs.claim(EMAIL_QUEUE, 60_000);
        if (!claimed) throw new Error('nothing to claim');
        await jobs.fail(claimed, new Error('SMTP said no'), { permanent: true });
        return claimed.id;
      };
      const first = await kill('dead-one');
      await kill('dead-two');
      const overview = await getJson('/admin/api/queues');
      const email = overview.queues.find((q: Json) => q.name === EMAIL_QUEUE);
      expect(email).toMatchObject({ health: 'dead-jobs', counts: { dead: 2 } });
      expect(email.deadJobs.map((j: Json) => j.idempotencyKey).sort()).toEqual(['dead-one', 'dead-two']);
      expect(email.deadJobs[0].lastError).toContain('SMTP said no');
      expect(JSON.stringify(email.deadJobs)).not.toContain('payload');
      expect(overview.queues.map((q: Json) => q.name)).toEqual([...ctx.deps.worker.queueNames()].sort());

      const post = (path: string) =>
        ctx.app.request(path, { method: 'POST', headers: { 'X-Admin-Api-Key': ADMIN_KEY } });
      const one = await post(`/admin/api/queues/${EMAIL_QUEUE}/jobs/${first}/retry`);
      expect(await one.json()).toEqual({ success: true, retried: 1 });
      expect((await post(`/admin/api/queues/${EMAIL_QUEUE}/jobs/${first}/retry`)).status).toBe(404);
      expect(await (await post(`/admin/api/queues/${EMAIL_QUEUE}/retry`)).json()).toEqual({
        success: true,
        retried: 1,
      });
      expect((await jobs.status(EMAIL_QUEUE)).counts.dead).toBe(0);
      expect((await post('/admin/api/queues/no-such-queue/retry')).status).toBe(404);
      expect(
        (await ctx.app.request(`/admin/api/queues/${EMAIL_QUEUE}/retry`, { method: 'POST' })).status,
      ).toBe(401);
      // Leave the queue clean for the other tests: the revived jobs carry no message and go dead again.
      await jobs.clear(EMAIL_QUEUE);
    });

    it('the summary counts leads and mail and says which optional features are on', async () => {
      const body = await getJson('/admin/api/summary');
      expect(body.leads.total).toBe(6);
      expect(body.leads.byClassification).toMatchObject({ lead: 4, vendor: 1, spam: 1 });
      expect(body.mail.transport).toBe('outbox');
      expect(body.features).toEqual({ analytics: expect.any(Boolean), prototypes: expect.any(Boolean) });
    });

    it('documents the admin routes in /openapi.json with the key as a security scheme', async () => {
      const doc: Json = await (await ctx.app.request('/openapi.json')).json();
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/admin/leads',
          '/admin/api/leads',
          '/admin/api/leads/{id}',
          '/admin/api/queues',
        ]),
      );
      expect(doc.components.securitySchemes.AdminApiKey).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'X-Admin-Api-Key',
      });
    });
  });

  describe('GET /admin/api/analytics', () => {
    it('answers exactly what GET /api/analytics/stats answers, for the charts', async () => {
      // One clock reading for the seed and the range: a UTC midnight in between cannot shift them apart.
      const now = Date.now();
      const written = await seedAnalytics(ctx.deps.db, 14, now);
      const today = new Date(now).toISOString().slice(0, 10);
      const from = new Date(now - 13 * DAY).toISOString().slice(0, 10);
      const query = `from=${from}&to=${today}&limit=5`;
      const admin = await getJson(`/admin/api/analytics?${query}`);
      const pub: Json = await (await ctx.app.request(`/api/analytics/stats?${query}`)).json();
      expect(admin).toEqual(pub);
      expect(admin.totalEvents).toBe(written);
      expect(admin.timeseries).toHaveLength(14);
      expect(admin.timeseries.reduce((n: number, p: Json) => n + p.events, 0)).toBe(written);
      expect(admin.topPages.length).toBeLessThanOrEqual(5);
      expect(admin.topCountries.map((c: Json) => c.country)).toContain('CO');
    });

    it('rejects a bad range with a 400 envelope', async () => {
      for (const query of ['from=2026-02-30', 'from=2026-10-05&to=2026-10-01', 'limit=0']) {
        const res = await get(`/admin/api/analytics?${query}`);
        expect(res.status).toBe(400);
        expect(((await res.json()) as Json).error.code).toBe('VALIDATION_ERROR');
      }
    });
  });
});
