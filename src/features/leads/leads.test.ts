import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  CHAT_KEY,
  freshIp,
  type LeadsWorld,
  leadsApp,
  postLead,
  startWorld,
  submission,
  uniqueEmail,
  worldEnv,
} from '../../../test/support/features/leads.ts';
import { sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import type { TestContext } from '../../../test/support/test-app.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';
import { END_USER_IP_HEADER, LEAD_LIMITS } from './limits.ts';
import { prototypeQuota } from './port.ts';
import { getLead } from './store.ts';

const engines = await testEngines();

let world: LeadsWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

// Spam and vendors as they really write (the built-in classifier weighs the sender too): a black-hat
// SEO blast from a made-up name with no company, a pitch from an outsourcing firm's sales manager.
const SPAM_GOAL =
  'We sell 5000 dofollow backlinks DA 50+ made with GSA and Xrumer, guaranteed first page of Google in 7 days!!! Telegram @seoking http://a.example http://b.example http://c.example';
const SPAMMER = { name: 'SEO King', company: undefined, position: undefined, phone_number: undefined };
const VENDOR_SENDER = { company: 'DevForce Outsourcing', position: 'Business Development Manager' };
const VENDOR_GOAL =
  'Hello, we are a software development agency from abroad. We offer dedicated developers and white-label outsourcing.';
const VENDOR_GOAL_ES =
  'Hola, somos una agencia de desarrollo. Le ofrecemos desarrolladores dedicados y subcontratación de marca blanca.';

function mailTo(address: string) {
  return world.smtp.messages.filter((m) => m.envelopeTo.includes(address));
}

describe.each(engines)('POST /api/leads on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await leadsApp(engine, worldEnv(world));
  });
  afterAll(() => ctx.close());

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected loosely in these tests
  type Loose = any;
  async function json(res: Response): Promise<Loose> {
    return res.json();
  }

  it('stores a genuine lead, syncs the CRM, and queues both e-mails', async () => {
    const address = uniqueEmail('ana.lead');
    const body = submission({
      personal: { email_address: `  ${address.toUpperCase()} `, company: 'Hotel <Sol>' },
      steps: { goal: 'More bookings <script>alert(1)</script>' },
    });
    const res = await postLead(ctx, body);
    expect(res.status).toBe(200);
    const created = await json(res);
    expect(created).toMatchObject({
      success: true,
      message: expect.any(String),
      leadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pipedrive: { success: true, leadId: expect.any(Number), message: expect.any(String) },
    });
    expect(created.previewUrl).toBe(`https://api.agency.example/api/leads/${created.leadId}/preview`);

    const lead = await getLead(ctx.deps.db, created.leadId);
    expect(lead).toMatchObject({
      status: 'new',
      classification: 'lead',
      classifiedBy: 'builtin',
      email: address,
      company: 'Hotel <Sol>',
      prototypeKind: 'landing',
      language: 'en',
      pipedrive: created.pipedrive,
    });
    expect(lead?.steps.goal).toBe('More bookings <script>alert(1)</script>');
    expect(lead?.clientIpHash).toMatch(/^iph_/);

    const deal = world.pipedrive.deals.find((d) => d.id === created.pipedrive.leadId);
    expect(deal?.title).toContain(created.leadId);
    const person = world.pipedrive.persons.find((p) => p.id === deal?.person_id);
    expect(person?.email).toBe(address);
    expect(world.pipedrive.organizations.find((o) => o.id === deal?.org_id)?.name).toBe('Hotel <Sol>');
    const note = world.pipedrive.notes.find((n) => n.deal_id === deal?.id);
    expect(note?.content).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(note?.content).not.toContain('<script>');

    await ctx.deps.worker.drain(EMAIL_QUEUE);
    const [confirmation] = mailTo(address);
    expect(confirmation?.subject).toBe('We received your request');
    expect(confirmation?.text).toContain('More bookings <script>alert(1)</script>');
    expect(confirmation?.html).toContain('More bookings &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(confirmation?.html).not.toContain('<script>');
    expect(confirmation?.html).toContain(created.previewUrl);
    expect(confirmation?.text).toContain('Audience: B2C');
    expect(confirmation?.text).toContain('Service: Build website');
    const notification = mailTo('sales@agency.example').find((m) => m.text?.includes(created.leadId));
    expect(notification?.subject).toBe('New lead: Ana García (Hotel <Sol>)');
    expect(notification?.replyTo?.text).toContain(address);
    expect(notification?.html).toContain('Hotel &lt;Sol&gt;');
  });

  it('verifies the CAPTCHA with the siteverify protocol', async () => {
    const before = world.siteverify.requests.length;
    const ip = freshIp();
    expect((await postLead(ctx, submission({ recaptchaToken: 'ok-abc' }), { ip })).status).toBe(200);
    const request = world.siteverify.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    expect(Object.fromEntries(form)).toEqual({
      secret: world.siteverify.secret,
      response: 'ok-abc',
      remoteip: ip,
    });
  });

  it('accepts a passing token without a score (Turnstile, hCaptcha)', async () => {
    expect((await postLead(ctx, submission({ recaptchaToken: 'noscore-1' }))).status).toBe(200);
  });

  it.each([
    ['a rejected token', { recaptchaToken: 'bad-token' }],
    ['a score below CAPTCHA_MIN_SCORE', { recaptchaToken: 'low-score' }],
    ['no token', { recaptchaToken: undefined }],
  ])('refuses %s with 400 CAPTCHA_FAILED and stores nothing', async (_label, override) => {
    const email = uniqueEmail('captcha');
    const res = await postLead(ctx, submission({ ...override, personal: { email_address: email } }));
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('CAPTCHA_FAILED');
    const found = await ctx.app.request(`/api/leads/lookup?email=${email}`, {
      headers: { 'x-chat-api-key': CHAT_KEY },
    });
    expect(await found.json()).toEqual({ exists: false });
  });

  it('trusted chat requests skip the CAPTCHA and the wizard-value check', async () => {
    const before = world.siteverify.requests.length;
    const body = submission({
      recaptchaToken: undefined,
      steps: { service: 'something-the-chat-said', industry: 'space tourism' },
    });
    const res = await postLead(ctx, body, { chatKey: CHAT_KEY });
    expect(res.status).toBe(200);
    expect(world.siteverify.requests.length).toBe(before);
    const lead = await getLead(ctx.deps.db, (await json(res)).leadId);
    expect(lead?.steps.service).toBe('something-the-chat-said');
  });

  it('a wrong X-Chat-Api-Key is not trusted', async () => {
    const res = await postLead(ctx, submission({ recaptchaToken: undefined }), { chatKey: 'guess' });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('CAPTCHA_FAILED');
  });

  it('spam is stored with status spam: no CRM, no e-mail', async () => {
    const email = uniqueEmail('spam');
    const dealsBefore = world.pipedrive.deals.length;
    const res = await postLead(
      ctx,
      submission({ personal: { ...SPAMMER, email_address: email }, steps: { goal: SPAM_GOAL } }),
    );
    expect(res.status).toBe(200);
    const created = await json(res);
    expect(created.pipedrive).toEqual({ success: false, leadId: null, message: 'CRM sync skipped' });
    const lead = await getLead(ctx.deps.db, created.leadId);
    expect(lead).toMatchObject({ status: 'spam', classification: 'spam', classifiedBy: 'builtin' });
    expect(lead?.classificationReason).toContain('names link-spam tools');
    // The public view says spam (the spec's states), never why: the reasons would teach what to avoid.
    const view = (await (await ctx.app.request(`/api/leads/${created.leadId}`)).json()) as Loose;
    expect(view.lead).toMatchObject({ status: 'spam', classification: 'spam' });
    expect(JSON.stringify(view)).not.toMatch(/classificationReason|classificationScore|link-spam/);
    const list = await (await ctx.app.request('/api/leads?all=true')).text();
    expect(list).not.toMatch(/classificationReason|link-spam/);
    expect(world.pipedrive.deals.length).toBe(dealsBefore);
    await ctx.deps.worker.drain(EMAIL_QUEUE);
    expect(mailTo(email)).toHaveLength(0);
  });

  it('a Spanish lead reads its answers in Spanish, and its subject keeps no bidi override', async () => {
    const email = uniqueEmail('es-values');
    const res = await postLead(
      ctx,
      submission({ personal: { email_address: email, name: 'Lucía\u202Eolleh' }, language: 'es' }),
    );
    expect(res.status).toBe(200);
    await ctx.deps.worker.drain(EMAIL_QUEUE);
    const [confirmation] = mailTo(email);
    for (const row of [
      'Servicio: Sitio web',
      'Industria: Hotelería y turismo',
      'Público: B2C',
      'Estilo: Moderno y minimalista',
    ]) {
      expect(confirmation?.text).toContain(row);
    }
    const notification = mailTo('sales@agency.example').find((m) => m.text?.includes(email));
    expect(notification?.subject).toBe('New lead: Lucíaolleh (Hotel Sol)');
  });

  it('vendors are stored with status vendor and get a polite decline in their language, no CRM', async () => {
    const dealsBefore = world.pipedrive.deals.length;
    const en = uniqueEmail('vendor');
    const es = uniqueEmail('proveedor');
    const resEn = await postLead(
      ctx,
      submission({ personal: { ...VENDOR_SENDER, email_address: en }, steps: { goal: VENDOR_GOAL } }),
    );
    const resEs = await postLead(
      ctx,
      submission({
        personal: { ...VENDOR_SENDER, email_address: es, name: 'Luis' },
        steps: { goal: VENDOR_GOAL_ES },
        language: 'es-CO',
      }),
    );
    for (const res of [resEn, resEs]) {
      expect(res.status).toBe(200);
      const lead = await getLead(ctx.deps.db, (await json(res)).leadId);
      expect(lead).toMatchObject({ status: 'vendor', classification: 'vendor' });
    }
    expect(world.pipedrive.deals.length).toBe(dealsBefore);
    await ctx.deps.worker.drain(EMAIL_QUEUE);
    expect(mailTo(en).map((m) => m.subject)).toEqual(['Thank you for reaching out']);
    const [spanish] = mailTo(es);
    expect(spanish?.subject).toBe('Gracias por tu mensaje');
    expect(spanish?.text).toContain('Hola Luis');
    expect(mailTo('sales@agency.example').some((m) => m.text?.includes(en))).toBe(false);
  });

  it('a double-click stores one lead and creates one deal', async () => {
    const body = submission({ personal: { email_address: uniqueEmail('double') } });
    const ip = freshIp();
    const [a, b] = await Promise.all([postLead(ctx, body, { ip }), postLead(ctx, body, { ip })]);
    const [first, second] = [await json(a), await json(b)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(second.leadId).toBe(first.leadId);
    const again = await json(await postLead(ctx, { ...body, recaptchaToken: 'already-used' }, { ip }));
    expect(again.leadId).toBe(first.leadId);
    expect(world.pipedrive.deals.filter((d) => d.title.includes(first.leadId))).toHaveLength(1);
    // The same person with different answers is a new lead.
    const other = await json(
      await postLead(ctx, { ...body, steps: { ...body.steps, goal: 'Another idea' } }),
    );
    expect(other.leadId).not.toBe(first.leadId);
  });

  it('enforces the monthly prototype quota before anything is stored', async () => {
    const email = uniqueEmail('quota');
    const ip = freshIp();
    for (const leadId of ['held-1', 'held-2']) {
      expect((await prototypeQuota(ctx.deps).reserve('landing', { ip: null, email }, leadId)).allowed).toBe(
        true,
      );
    }
    const res = await postLead(ctx, submission({ personal: { email_address: email } }), { ip });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await json(res);
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.rateLimit.landing).toEqual({ used: 2, limit: 2, remaining: 0 });
    // Another kind, or no prototype at all, is still welcome.
    const app = submission({ personal: { email_address: email }, steps: { prototype: 'application' } });
    expect((await postLead(ctx, app, { ip })).status).toBe(200);
    const none = submission({
      personal: { email_address: email },
      steps: { prototype: undefined, goal: 'Just advice' },
    });
    expect((await postLead(ctx, none, { ip })).status).toBe(200);
  });

  it('limits submissions per client IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < ctx.config.leadsRateLimit; i++) {
      expect((await postLead(ctx, '{}', { ip })).status).toBe(400);
    }
    const res = await postLead(ctx, submission(), { ip });
    expect(res.status).toBe(429);
    expect((await json(res)).error.code).toBe('RATE_LIMITED');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await postLead(ctx, submission(), { ip: freshIp() })).status).toBe(200);
  });

  it('on the trusted chat path the IP bucket is the visitor named in X-End-User-IP, not the agent', async () => {
    const agentIp = freshIp();
    const visitor = freshIp();
    const landing = (n: number) =>
      submission({
        personal: { email_address: `chat-${n}-${agentIp}@example.com` },
        steps: { prototype: 'landing' },
      });
    const asAgent = (n: number, endUser: string) =>
      postLead(ctx, landing(n), {
        ip: agentIp,
        chatKey: CHAT_KEY,
        headers: { [END_USER_IP_HEADER]: endUser },
      });
    // The visitor's bucket fills after PROTOTYPE_MONTHLY_LIMIT (2), whatever the e-mail…
    expect((await asAgent(1, visitor)).status).toBe(200);
    expect((await asAgent(2, visitor)).status).toBe(200);
    expect((await asAgent(3, visitor)).status).toBe(429);
    // …while other visitors behind the same agent keep their own.
    expect((await asAgent(4, freshIp())).status).toBe(200);
    expect((await asAgent(5, freshIp())).status).toBe(200);
  });

  describe('bad input', () => {
    const cases: [string, unknown][] = [
      ['a missing e-mail', submission({ personal: { email_address: undefined } })],
      ['an invalid e-mail', submission({ personal: { email_address: 'not-an-email' } })],
      ['a missing name', submission({ personal: { name: '   ' } })],
      ['no personal block', { steps: {}, recaptchaToken: 'ok' }],
      ['an oversize name', submission({ personal: { name: 'x'.repeat(LEAD_LIMITS.name + 1) } })],
      ['an oversize company', submission({ personal: { company: 'x'.repeat(LEAD_LIMITS.company + 1) } })],
      ['an oversize phone', submission({ personal: { phone_number: '1'.repeat(LEAD_LIMITS.phone + 1) } })],
      ['an oversize goal', submission({ steps: { goal: 'x'.repeat(LEAD_LIMITS.goal + 1) } })],
      [
        'too many features',
        submission({ steps: { features: Array.from({ length: 31 }, (_, i) => `f${i}`) } }),
      ],
      ['a feature that is not a string', submission({ steps: { features: [1] } })],
      ['an unknown service', submission({ steps: { service: 'build-rocket' } })],
      ['an unknown industry', submission({ steps: { industry: 'mining' } })],
      ['an unknown style', submission({ steps: { style: 'brutalist' } })],
      ['an unknown audience', submission({ steps: { audience: 'aliens' } })],
      ['an unknown initial choice', submission({ steps: { initial_choice: 'destroy' } })],
      ['an unknown prototype kind', submission({ steps: { prototype: 'game' } })],
      ['malformed JSON', '{"personal":'],
      ['a JSON array', '[]'],
    ];
    it.each(cases)('%s → 400 VALIDATION_ERROR, nothing stored', async (_label, body) => {
      const before = (await (await ctx.app.request('/api/leads?limit=1')).json()) as { total: number };
      const res = await postLead(ctx, body);
      expect(res.status).toBe(400);
      const envelope = await json(res);
      expect(envelope).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(envelope.error.message).not.toMatch(/at .*\.ts/);
      const after = (await (await ctx.app.request('/api/leads?limit=1')).json()) as { total: number };
      expect(after.total).toBe(before.total);
    });

    it('a non-JSON body → 415', async () => {
      const res = await ctx.app.request('/api/leads', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': freshIp() },
        body: 'hello',
      });
      expect(res.status).toBe(415);
    });

    it('unknown fields are ignored and HTML in every text field is stored as text', async () => {
      const html = '<img src=x onerror=alert(1)>';
      const body = {
        ...submission({
          personal: {
            name: `Ana ${html}`,
            company: `Co ${html}`,
            position: `CEO ${html}`,
            phone_number: `+1 ${html}`.slice(0, 50),
          },
          steps: { goal: `Goal ${html}`, features: [`feat ${html}`] },
          source_url: `https://x.example/?q=${html}`,
        }),
        unexpected: { nested: true },
      };
      const res = await postLead(ctx, body);
      expect(res.status).toBe(200);
      const { leadId } = await json(res);
      const view = await json(await ctx.app.request(`/api/leads/${leadId}`));
      expect(view.lead.name).toBe(`Ana ${html}`);
      expect(view.lead.company).toBe(`Co ${html}`);
      expect(view.lead.position).toBe(`CEO ${html}`);
      expect(view.lead.steps.goal).toBe(`Goal ${html}`);
      expect(view.lead.steps.features).toEqual([`feat ${html}`]);
      expect(view.lead.sourceUrl).toBe(`https://x.example/?q=${html}`);
      expect(view.lead).not.toHaveProperty('unexpected');
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      const [mail] = mailTo(body.personal.email_address.toLowerCase());
      expect(mail?.html).not.toContain('<img');
      expect(mail?.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      const notification = mailTo('sales@agency.example').find((m) => m.text?.includes(leadId));
      expect(notification?.html).not.toContain('<img');
      expect(notification?.subject).not.toMatch(/[\r\n]/);
    });
  });
});

describe.each(engines)('filter switches on %s', (engine) => {
  it('SPAM_FILTER_ENABLED=false lets spam through as a lead (classification still stored)', async () => {
    const ctx = await leadsApp(engine, worldEnv(world, { SPAM_FILTER_ENABLED: 'false' }));
    try {
      const res = await postLead(ctx, submission({ personal: SPAMMER, steps: { goal: SPAM_GOAL } }));
      const created = (await res.json()) as { leadId: string; pipedrive: { success: boolean } };
      const lead = await getLead(ctx.deps.db, created.leadId);
      expect(lead).toMatchObject({ status: 'new', classification: 'spam' });
      expect(created.pipedrive.success).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('VENDOR_FILTER_ENABLED=false treats a vendor as a lead: CRM and the usual e-mails', async () => {
    const ctx = await leadsApp(engine, worldEnv(world, { VENDOR_FILTER_ENABLED: 'false' }));
    try {
      const email = uniqueEmail('vendor-through');
      const res = await postLead(
        ctx,
        submission({ personal: { ...VENDOR_SENDER, email_address: email }, steps: { goal: VENDOR_GOAL } }),
      );
      const created = (await res.json()) as { leadId: string; pipedrive: { success: boolean } };
      expect(await getLead(ctx.deps.db, created.leadId)).toMatchObject({
        status: 'new',
        classification: 'vendor',
      });
      expect(created.pipedrive.success).toBe(true);
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      expect(mailTo(email).map((m) => m.subject)).toEqual(['We received your request']);
    } finally {
      await ctx.close();
    }
  });

  it('without CAPTCHA_SECRET, PIPEDRIVE_API_TOKEN and SMTP_URL: not enforced, skipped, kept in the outbox', async () => {
    const ctx = await leadsApp(engine, { TRUST_PROXY: 'xff' });
    try {
      const res = await postLead(ctx, submission({ recaptchaToken: undefined }));
      expect(res.status).toBe(200);
      const created = (await res.json()) as { leadId: string; pipedrive: unknown };
      expect(created.pipedrive).toEqual({
        success: false,
        leadId: null,
        message: 'CRM sync skipped: PIPEDRIVE_API_TOKEN is not set',
      });
      expect(await ctx.deps.worker.drain(EMAIL_QUEUE)).toBe(2);
      const { listOutbox } = await import('../../integrations/mail/outbox.ts');
      const outbox = await listOutbox(ctx.deps.db);
      expect(outbox.total).toBe(2);
      expect(outbox.messages.every((m) => m.status === 'stored' && m.transport === 'outbox')).toBe(true);
      expect(outbox.messages.map((m) => m.subject).sort()).toEqual([
        'New lead: Ana García (Hotel Sol)',
        'We received your request',
      ]);
    } finally {
      await ctx.close();
    }
  });

  it.each([
    ['a wrong CAPTCHA_SECRET (siteverify: invalid-input-secret)', 'not-the-secret', true],
    ['an unreachable CAPTCHA service', 's', false],
  ])("%s → 502, not the visitor's fault; nothing stored", async (_label, secret, reachable) => {
    const ctx = await leadsApp(engine, {
      CAPTCHA_SECRET: secret,
      CAPTCHA_VERIFY_URL: reachable ? `${world.siteverify.url}/siteverify` : 'http://127.0.0.1:9/siteverify',
      TRUST_PROXY: 'xff',
    });
    try {
      const res = await postLead(ctx, submission({ recaptchaToken: 'ok-token' }));
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('EXTERNAL_SERVICE_ERROR');
      const list = (await (await ctx.app.request('/api/leads')).json()) as { total: number };
      expect(list.total).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('a siteverify answer that is not a JSON object → 502, not a 500', async () => {
    const siteverify = await startStandIn((_req, res) => sendJson(res, 200, null));
    const ctx = await leadsApp(engine, {
      CAPTCHA_SECRET: 's',
      CAPTCHA_VERIFY_URL: `${siteverify.url}/siteverify`,
      TRUST_PROXY: 'xff',
    });
    try {
      const res = await postLead(ctx, submission({ recaptchaToken: 'ok-token' }));
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('EXTERNAL_SERVICE_ERROR');
    } finally {
      await ctx.close();
      await siteverify.close();
    }
  });
});
