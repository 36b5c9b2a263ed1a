import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  CHAT_KEY,
  createLead,
  eventually,
  freshIp,
  gatedGenerator,
  post,
  startV0StandIn,
} from '../../../test/support/features/prototypes.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import type { PrototypeGenerator } from '../../integrations/prototype-generator/types.ts';
import { prototypeQuota } from '../leads/port.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import { PROTOTYPE_QUEUE, prototypeQueue } from './queue.ts';
import { latestAttempt } from './store.ts';

const BASE = 'https://api.agency.example';
// A black-hat SEO blast from a made-up name with no company, as spammers send it.
const SPAM_GOAL =
  'We sell 5000 dofollow backlinks DA 50+ made with GSA and Xrumer, guaranteed first page of Google in 7 days!!! Telegram @seoking http://a.example http://b.example http://c.example';

async function app(
  engine: 'sqlite' | 'postgres',
  generator?: PrototypeGenerator,
  env: Record<string, string> = {},
) {
  return createTestApp({
    engine,
    env: { CHAT_API_SECRET: CHAT_KEY, PUBLIC_BASE_URL: BASE, TRUST_PROXY: 'xff', ...env },
    overrides: { backoffBaseMs: 1, ...(generator ? { prototypeGenerator: generator } : {}) },
  });
}

async function leadStatus(ctx: TestContext, id: string): Promise<string> {
  const res = await ctx.app.request(`/api/leads/${id}`);
  return ((await res.json()) as { lead: { status: string } }).lead.status;
}

describe.each(await testEngines())('prototype routes on %s', (engine) => {
  let ctx: TestContext;
  const gated = gatedGenerator();
  beforeAll(async () => {
    ctx = await app(engine, gated.generator);
  });
  afterAll(() => ctx.close());

  it('trigger-generation answers at once, then the background run completes the lead', async () => {
    gated.close();
    const email = `trigger.${Date.now()}@example.com`;
    const id = await createLead(ctx.app, { personal: { email_address: email } });
    const res = await post(ctx.app, `/api/leads/${id}/trigger-generation`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      success: true,
      status: 'started',
      previewUrl: `${BASE}/api/leads/${id}/preview`,
      leadId: id,
      attempt: 1,
      alreadyRunning: false,
    });
    expect(new Date(body.generatedAt as string).toISOString()).toBe(body.generatedAt);
    expect(await leadStatus(ctx, id)).toBe('generating');
    // The quota was re-checked: the slot is taken and marked in progress.
    const usage = await prototypeQuota(ctx.deps).usage({ ip: null, email });
    expect(usage).toMatchObject({ landing: { used: 1 }, inProgress: true, inProgressType: 'landing' });

    // A second trigger while it runs returns the running attempt: no double generation.
    const again = (await (await post(ctx.app, `/api/leads/${id}/trigger-generation`)).json()) as Record<
      string,
      unknown
    >;
    expect(again).toMatchObject({ attempt: 1, alreadyRunning: true, generatedAt: body.generatedAt });

    gated.open();
    await ctx.deps.background.idle();
    expect(await leadStatus(ctx, id)).toBe('completed');
    expect(await prototypeQuota(ctx.deps).usage({ ip: null, email })).toMatchObject({
      landing: { used: 1 },
      inProgress: false,
    });
    const attempt = await latestAttempt(ctx.deps.db, id);
    expect(attempt).toMatchObject({ attempt: 1, status: 'completed', generator: 'builtin', hasHtml: true });
    expect(attempt!.completedAt).toBeGreaterThanOrEqual(attempt!.generatingAt);
  });

  it('limits triggers per lead per hour, counting only leads that could generate', async () => {
    gated.close();
    const id = await createLead(ctx.app);
    const limit = PROTOTYPE_LIMITS.generationRequestsPerHour;
    for (let i = 0; i < limit; i++) {
      expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    }
    const refused = await post(ctx.app, `/api/leads/${id}/trigger-generation`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });

    // Unknown and ineligible ids are refused before counting: no bucket row per made-up id.
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const noPrototype = await createLead(ctx.app, {
      steps: { prototype: undefined, service: 'seo-services' },
    });
    for (let i = 0; i <= limit; i++) {
      for (const path of ['trigger-generation', 'generate']) {
        expect((await post(ctx.app, `/api/leads/${unknown}/${path}`)).status).toBe(404);
        expect((await post(ctx.app, `/api/leads/${noPrototype}/${path}`)).status).toBe(409);
      }
    }
    const buckets = await ctx.deps.db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'in', [`prototype-generation:${unknown}`, `prototype-generation:${noPrototype}`])
      .execute();
    expect(buckets).toEqual([]);
    gated.open();
    await ctx.deps.background.idle();
  });

  it('the blocking generate shares the per-lead limit with trigger-generation (each may be a paid call)', async () => {
    gated.open();
    const id = await createLead(ctx.app);
    const limit = PROTOTYPE_LIMITS.generationRequestsPerHour;
    // A completed lead may be regenerated, but every request counts against one budget.
    for (let i = 0; i < limit; i++) {
      if (i % 2 === 0) {
        expect((await post(ctx.app, `/api/leads/${id}/generate`)).status).toBe(200);
      } else {
        expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
        await ctx.deps.background.idle();
      }
    }
    const attempts = (await latestAttempt(ctx.deps.db, id))!.attempt;
    for (const path of ['generate', 'trigger-generation']) {
      const refused = await post(ctx.app, `/api/leads/${id}/${path}`);
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers.get('retry-after')), path).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    }
    // Refused before anything started: no further generation.
    expect((await latestAttempt(ctx.deps.db, id))!.attempt).toBe(attempts);
    expect(await leadStatus(ctx, id)).toBe('completed');
  });

  it('refuses unknown, spam, vendor and non-prototype leads with a clear 4xx', async () => {
    const unknown = await post(ctx.app, '/api/leads/00000000-0000-4000-8000-000000000000/trigger-generation');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    const spam = await createLead(ctx.app, {
      personal: { name: 'SEO King', company: undefined },
      steps: { goal: SPAM_GOAL },
    });
    expect(await leadStatus(ctx, spam)).toBe('spam');
    const noPrototype = await createLead(ctx.app, {
      steps: { prototype: undefined, service: 'seo-services' },
    });
    for (const id of [spam, noPrototype]) {
      for (const path of ['trigger-generation', 'generate']) {
        const res = await post(ctx.app, `/api/leads/${id}/${path}`);
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
      }
      const stream = await ctx.app.request(`/api/leads/${id}/generate-stream`);
      expect(stream.status).toBe(409);
    }
    expect(await latestAttempt(ctx.deps.db, spam)).toBeNull();
  });

  it('POST generate blocks until the prototype is ready and reports it', async () => {
    const id = await createLead(ctx.app, { steps: { prototype: 'application' } });
    const res = await post(ctx.app, `/api/leads/${id}/generate`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      status: 'completed',
      leadId: id,
      attempt: 1,
      generator: 'builtin',
      previewUrl: `${BASE}/api/leads/${id}/preview`,
      documentUrl: `${BASE}/api/leads/${id}/prototype`,
      demoUrl: null,
    });
    expect(await leadStatus(ctx, id)).toBe('completed');

    const doc = await ctx.app.request(`/api/leads/${id}/prototype`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/text\/html/);
    expect(doc.headers.get('cache-control')).toBe('no-store');
    const csp = doc.headers.get('content-security-policy')!;
    expect(csp.split(';').map((d) => d.trim())).toEqual(
      expect.arrayContaining(['sandbox', "default-src 'none'"]),
    );
    expect(csp).not.toMatch(/allow-same-origin|allow-scripts/);
    const html = await doc.text();
    expect(html).toContain('class="app-sidebar"');
    expect(html).not.toMatch(/<script/i);
  });

  it('the document route is 404 before there is a prototype', async () => {
    const id = await createLead(ctx.app);
    const res = await ctx.app.request(`/api/leads/${id}/prototype`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('a hostile name and goal are escaped in the generated document and the preview', async () => {
    const id = await createLead(ctx.app, {
      personal: { name: '<script>alert(1)</script>', company: '"><img src=x onerror=alert(2)>' },
      steps: { goal: '</title><svg onload=alert(3)>' },
    });
    await post(ctx.app, `/api/leads/${id}/generate`);
    const doc = await (await ctx.app.request(`/api/leads/${id}/prototype`)).text();
    const preview = await (await ctx.app.request(`/api/leads/${id}/preview`)).text();
    for (const html of [doc, preview]) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<svg onload');
    }
    expect(preview).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
  });
});

describe.each(await testEngines())('quota, failures and the chat path on %s', (engine) => {
  let v0: Awaited<ReturnType<typeof startV0StandIn>>;
  let ctx: TestContext;
  beforeAll(async () => {
    v0 = await startV0StandIn();
    ctx = await app(engine, v0.generator(), { PROTOTYPE_MONTHLY_LIMIT: '1' });
  });
  afterAll(async () => {
    await ctx.close();
    await v0.close();
  });

  it('an exhausted monthly quota is 429 RATE_LIMITED with Retry-After and the reset date', async () => {
    const email = `quota.${Date.now()}@example.com`;
    const ip = freshIp();
    const first = await createLead(ctx.app, { personal: { email_address: email } }, { ip });
    const second = await createLead(
      ctx.app,
      { personal: { email_address: email }, steps: { goal: 'Another site' } },
      { ip },
    );
    expect((await post(ctx.app, `/api/leads/${first}/trigger-generation`)).status).toBe(200);
    const refused = await post(ctx.app, `/api/leads/${second}/trigger-generation`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string; resetDate: string; limit: number } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.resetDate).toMatch(/^\d{4}-\d{2}-01$/);
    expect(body.error.limit).toBe(1);
    await ctx.deps.background.idle();
  });

  it('a blocking generation whose generator is down is 502 `generating`: the lead keeps its slot and the queue retries it', async () => {
    v0.setFailures(-1);
    const email = `down.${Date.now()}@example.com`;
    let id: string;
    try {
      id = await createLead(ctx.app, { personal: { email_address: email } });
      const res = await post(ctx.app, `/api/leads/${id}/generate`);
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({
        success: false,
        error: {
          code: 'EXTERNAL_SERVICE_ERROR',
          status: 'generating',
          previewUrl: `${BASE}/api/leads/${id}/preview`,
        },
      });
      // Not the end: an outside outage is ridden out, the lead waits with its slot held.
      expect(await leadStatus(ctx, id)).toBe('generating');
      expect(await prototypeQuota(ctx.deps).usage({ ip: null, email })).toMatchObject({
        landing: { used: 1 },
        inProgress: true,
      });
    } finally {
      v0.setFailures(0);
    }
    // v0 is back: the retry job completes it.
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect(await leadStatus(ctx, id)).toBe('completed');
    expect((await prototypeQuota(ctx.deps).usage({ ip: null, email })).landing.used).toBe(1);
  });

  it('a blocking generation that fails for good is 502 `failed`, the lead failed and its quota slot given back', async () => {
    v0.setFailures(-1, 401);
    try {
      const email = `fail.${Date.now()}@example.com`;
      const id = await createLead(ctx.app, { personal: { email_address: email } });
      const res = await post(ctx.app, `/api/leads/${id}/generate`);
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({
        success: false,
        error: {
          code: 'EXTERNAL_SERVICE_ERROR',
          status: 'failed',
          previewUrl: `${BASE}/api/leads/${id}/preview`,
        },
      });
      expect(await leadStatus(ctx, id)).toBe('failed');
      const usage = await prototypeQuota(ctx.deps).usage({ ip: null, email });
      expect(usage.landing.used).toBe(0);
      expect(usage.inProgress).toBe(false);
    } finally {
      v0.setFailures(0);
    }
  });

  it('a failed regeneration keeps the slot of the prototype the lead already has', async () => {
    const email = `regen.${Date.now()}@example.com`;
    const id = await createLead(ctx.app, { personal: { email_address: email } });
    expect((await post(ctx.app, `/api/leads/${id}/generate`)).status).toBe(200);
    expect((await prototypeQuota(ctx.deps).usage({ ip: null, email })).landing.used).toBe(1);
    v0.setFailures(-1, 401);
    try {
      expect((await post(ctx.app, `/api/leads/${id}/generate`)).status).toBe(502);
    } finally {
      v0.setFailures(0);
    }
    // One prototype delivered this month: one slot used, nothing in progress.
    const usage = await prototypeQuota(ctx.deps).usage({ ip: null, email });
    expect(usage.landing.used).toBe(1);
    expect(usage.inProgress).toBe(false);
  });

  it('a v0 prototype is shown from its demo URL; the document route redirects to it', async () => {
    const id = await createLead(ctx.app);
    const body = (await (await post(ctx.app, `/api/leads/${id}/generate`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'completed',
      generator: 'v0',
      demoUrl: `${v0.url}/demo`,
      documentUrl: null,
    });
    const doc = await ctx.app.request(`/api/leads/${id}/prototype`);
    expect(doc.status).toBe(302);
    expect(doc.headers.get('location')).toBe(`${v0.url}/demo`);
    const preview = await ctx.app.request(`/api/leads/${id}/preview`);
    const html = await preview.text();
    expect(html).toContain(`src="${v0.url}/demo"`);
    expect(preview.headers.get('content-security-policy')).toContain(`frame-src 'self' ${v0.url}`);
  });

  it('a trusted chat submission creates the prototype synchronously and reports the outcome', async () => {
    const ok = await ctx.app.request('/api/leads', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-chat-api-key': CHAT_KEY,
        'x-forwarded-for': freshIp(),
      },
      body: JSON.stringify({
        personal: { name: 'Chat Visitor', email_address: `chat.${Date.now()}@example.com` },
        steps: { prototype: 'application', goal: 'A booking portal' },
        language: 'es',
      }),
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as {
      success: boolean;
      leadId: string;
      prototype: Record<string, unknown>;
    };
    expect(body.success).toBe(true);
    expect(body.prototype).toMatchObject({ status: 'completed', generator: 'v0', demoUrl: `${v0.url}/demo` });
    expect(await leadStatus(ctx, body.leadId)).toBe('completed');
  });

  it("a repeat of a chat submission answers the first one's prototype outcome, without generating again", async () => {
    const send = (body: string) =>
      ctx.app.request('/api/leads', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-chat-api-key': CHAT_KEY,
          'x-forwarded-for': freshIp(),
        },
        body,
      });
    const submission = (email: string) =>
      JSON.stringify({
        personal: { name: 'Chat Repeat', email_address: email },
        steps: { prototype: 'landing' },
      });

    const good = submission(`repeat.ok.${Date.now()}@example.com`);
    const first = (await (await send(good)).json()) as { leadId: string; prototype: unknown };
    const creates = v0.creates();
    const again = await send(good);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      success: true,
      leadId: first.leadId,
      prototype: first.prototype,
    });
    expect(v0.creates()).toBe(creates);

    v0.setFailures(-1, 401);
    try {
      const bad = submission(`repeat.fail.${Date.now()}@example.com`);
      expect((await send(bad)).status).toBe(502);
      const repeat = await send(bad);
      expect(repeat.status).toBe(502);
      expect(await repeat.json()).toMatchObject({
        success: false,
        prototype: { status: 'failed' },
        error: { code: 'EXTERNAL_SERVICE_ERROR' },
      });
    } finally {
      v0.setFailures(0);
    }
  });

  it('a failed synchronous creation on the chat path is HTTP 502 with success false; the lead is stored', async () => {
    const chatSubmission = () =>
      ctx.app.request('/api/leads', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-chat-api-key': CHAT_KEY,
          'x-forwarded-for': freshIp(),
        },
        body: JSON.stringify({
          personal: { name: 'Chat Visitor', email_address: `chatfail.${randomUUID()}@example.com` },
          steps: { prototype: 'landing' },
        }),
      });
    type Answer = {
      success: boolean;
      leadId: string;
      prototype: { status: string };
      error: { code: string };
    };
    try {
      // Refused for good: failed, the lead too.
      v0.setFailures(-1, 401);
      const refused = await chatSubmission();
      expect(refused.status).toBe(502);
      const body = (await refused.json()) as Answer;
      expect(body).toMatchObject({
        success: false,
        prototype: { status: 'failed' },
        error: { code: 'EXTERNAL_SERVICE_ERROR' },
      });
      const stored = await ctx.app.request(`/api/leads/${body.leadId}`);
      expect(stored.status).toBe(200);
      expect(await leadStatus(ctx, body.leadId)).toBe('failed');

      // Down for now: the prototype is still coming (PrototypeQueue retries), the lead generating.
      v0.setFailures(-1);
      const down = await chatSubmission();
      expect(down.status).toBe(502);
      const later = (await down.json()) as Answer;
      expect(later).toMatchObject({
        success: false,
        prototype: { status: 'generating' },
        error: { code: 'EXTERNAL_SERVICE_ERROR' },
      });
      expect(await leadStatus(ctx, later.leadId)).toBe('generating');
    } finally {
      v0.setFailures(0);
    }
  });

  it('a shutdown during POST generate hands the attempt to PrototypeQueue: the lead is not failed', async () => {
    // A generator that runs until it is aborted.
    const endless: PrototypeGenerator = {
      name: 'builtin',
      generate: (_brief, options) =>
        new Promise((_resolve, reject) => {
          // Started after the shutdown signal (the watchdog is queued first): aborted from the start.
          if (options.signal?.aborted) return reject(options.signal.reason);
          void options.onProgress({ step: 'generating', percent: 20 });
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
        }),
    };
    const stopping = await app(engine, endless);
    try {
      const email = `handover.${Date.now()}@example.com`;
      const id = await createLead(stopping.app, { personal: { email_address: email } });
      const answer = post(stopping.app, `/api/leads/${id}/generate`);
      await eventually(async () => (await latestAttempt(stopping.deps.db, id))?.status === 'generating');
      stopping.deps.signalShutdown();
      const res = await answer;
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ success: false, error: { status: 'generating' } });
      expect(await leadStatus(stopping, id)).toBe('generating');
      // The hand-over job, and the watchdog every attempt run outside the queue gets.
      const pending = await stopping.deps.jobs.list(PROTOTYPE_QUEUE, { status: 'pending' });
      expect(pending.map((j) => (j.payload as { reason: string }).reason).sort()).toEqual([
        'retry',
        'watchdog',
      ]);
      expect((await prototypeQuota(stopping.deps).usage({ ip: null, email })).landing.used).toBe(1);
    } finally {
      await stopping.close();
    }
  });

  it('a background failure is handed to PrototypeQueue, which retries and completes it', async () => {
    v0.setFailures(1);
    const id = await createLead(ctx.app);
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    await ctx.deps.background.idle();
    const failed = await latestAttempt(ctx.deps.db, id);
    expect(failed).toMatchObject({ attempt: 1, status: 'failed' });
    expect(await leadStatus(ctx, id)).toBe('generating');
    const queued = await prototypeQueue(ctx.deps.jobs).status();
    expect(queued.counts.pending).toBeGreaterThan(0);
    await eventually(
      async () =>
        (await ctx.deps.worker.drain('prototype-generation')) >= 0 &&
        (await leadStatus(ctx, id)) === 'completed',
    );
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({
      attempt: 2,
      status: 'completed',
      origin: 'queue',
    });
  });
});
