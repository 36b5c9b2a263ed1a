import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { createLead, eventually, post, startV0StandIn } from '../../../test/support/features/prototypes.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { BuiltinPrototypeGenerator } from '../../integrations/prototype-generator/builtin/builtin-generator.ts';
import {
  type GenerationRequest,
  PrototypeGenerationError,
  type PrototypeGenerator,
} from '../../integrations/prototype-generator/types.ts';
import { prototypeQuota } from '../leads/port.ts';
import { prototypeContext, prototypePorts } from './context.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import { PROTOTYPE_QUEUE, prototypeQueue } from './queue.ts';
import { latestAttempt, startAttempt } from './store.ts';

describe.each(await testEngines())('PrototypeQueue on %s', (engine) => {
  let v0: Awaited<ReturnType<typeof startV0StandIn>>;
  let ctx: TestContext;
  beforeAll(async () => {
    v0 = await startV0StandIn();
    ctx = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff', PUBLIC_BASE_URL: 'https://api.agency.example' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: v0.generator() },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await v0.close();
  });

  const status = async (id: string) =>
    ((await (await ctx.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } }).lead.status;

  /** Runs due jobs until the lead reaches `wanted` (retries wait a few milliseconds of backoff). */
  async function drainUntil(id: string, wanted: string) {
    await eventually(async () => {
      await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
      return (await status(id)) === wanted;
    });
  }

  it('exposes enqueue, status and clear', async () => {
    const queue = prototypeQueue(ctx.deps.jobs);
    expect(queue.name).toBe(PROTOTYPE_QUEUE);
    await queue.clear();
    const job = await queue.enqueue(
      { leadId: 'nobody', reason: 'manual' },
      { idempotencyKey: 'manual:nobody' },
    );
    expect(job.created).toBe(true);
    expect(
      (await queue.enqueue({ leadId: 'nobody', reason: 'manual' }, { idempotencyKey: 'manual:nobody' })).id,
    ).toBe(job.id);
    expect((await queue.status()).counts.pending).toBe(1);
    // An unknown lead is nothing to do: the job completes.
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect((await queue.status()).counts).toMatchObject({ pending: 0, completed: 1 });
    expect(await queue.clear()).toBe(1);
    expect((await queue.status()).counts.completed).toBe(0);
  });

  it('a queue run cut by the shutdown completes its job and leaves a fresh one: no attempt used up', async () => {
    let calls = 0;
    const generator: PrototypeGenerator = {
      name: 'builtin',
      generate: (_brief, options) =>
        new Promise((_resolve, reject) => {
          // The background run fails at once (→ a queue job); the queue's run lasts until aborted.
          if (++calls === 1) return reject(new PrototypeGenerationError('first try fails'));
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
        }),
    };
    const stopping = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: generator },
    });
    try {
      const id = await createLead(stopping.app);
      expect((await post(stopping.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
      await stopping.deps.background.idle();
      // The real worker, stopped the way the server stops it.
      stopping.deps.worker.start();
      await eventually(
        async () => calls >= 2 && (await latestAttempt(stopping.deps.db, id))?.status === 'generating',
      );
      stopping.deps.signalShutdown();
      await stopping.deps.worker.stop(5000);
      const jobs = await stopping.deps.jobs.list(PROTOTYPE_QUEUE, {});
      expect(jobs.filter((j) => j.status === 'dead')).toHaveLength(0);
      // (The background run's watchdog is pending too.)
      const retries = jobs.filter(
        (j) => j.status === 'pending' && (j.payload as { reason: string }).reason === 'retry',
      );
      expect(retries).toHaveLength(1);
      expect(jobs.find((j) => j.status === 'completed')).toBeDefined();
      expect(await latestAttempt(stopping.deps.db, id)).toMatchObject({ status: 'failed' });
      expect(
        ((await (await stopping.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } }).lead
          .status,
      ).toBe('generating');
    } finally {
      await stopping.close();
    }
  });

  it('every attempt of one generation request carries its key; the next request gets a new one', async () => {
    // What each attempt does: fail (retryably or for good) or complete.
    const script = ['retry', 'ok', 'final', 'retry', 'ok'];
    const seen: (GenerationRequest | undefined)[] = [];
    const builtin = new BuiltinPrototypeGenerator();
    const generator: PrototypeGenerator = {
      name: 'builtin',
      async generate(brief, options) {
        seen.push(options.request);
        const step = script[seen.length - 1];
        if (step === 'ok') return builtin.generate(brief, options);
        throw new PrototypeGenerationError(`${step} failure`, { retryable: step === 'retry' });
      },
    };
    const app = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: generator },
    });
    try {
      const id = await createLead(app.app);
      const leadStatus = async () =>
        ((await (await app.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } }).lead
          .status;
      const trigger = async () => {
        expect((await post(app.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
        await app.deps.background.idle();
        return (await latestAttempt(app.deps.db, id))!.id;
      };
      // 1 fails, its retry through PrototypeQueue (2) completes: one request.
      const first = await trigger();
      await eventually(async () => {
        await app.deps.worker.drain(PROTOTYPE_QUEUE);
        return (await leadStatus()) === 'completed';
      });
      // A regeneration (3) fails for good; the next one (4) fails and is restarted (5) while the
      // lead still holds its slot: the same request.
      const third = await trigger();
      expect(await leadStatus()).toBe('failed');
      const fourth = await trigger();
      await trigger();
      expect(await leadStatus()).toBe('completed');
      expect(seen).toEqual([
        { key: first, retry: false },
        { key: first, retry: true },
        { key: third, retry: false },
        { key: fourth, retry: false },
        { key: fourth, retry: true },
      ]);
    } finally {
      await app.close();
    }
  });

  it('v0 made the chat but its answer was lost: the retry resumes that chat instead of a second one', async () => {
    const lossy = await startV0StandIn({ lostAnswers: 1, failStatus: 502 });
    const app = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: lossy.generator() },
    });
    try {
      const id = await createLead(app.app);
      await post(app.app, `/api/leads/${id}/trigger-generation`);
      await app.deps.background.idle();
      expect(await latestAttempt(app.deps.db, id)).toMatchObject({ attempt: 1, status: 'failed' });
      await eventually(async () => {
        await app.deps.worker.drain(PROTOTYPE_QUEUE);
        return (await latestAttempt(app.deps.db, id))?.status === 'completed';
      });
      expect(await latestAttempt(app.deps.db, id)).toMatchObject({ attempt: 2, externalId: 'chat_1' });
      expect(lossy.creates()).toBe(1);
    } finally {
      await app.close();
      await lossy.close();
    }
  });

  it('a failure that retrying cannot fix (v0 refuses the key) is final at once', async () => {
    const refusing = await startV0StandIn({ failures: -1, failStatus: 401 });
    const app = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: refusing.generator() },
    });
    try {
      const email = `refused.${Date.now()}@example.com`;
      const id = await createLead(app.app, { personal: { email_address: email } });
      await post(app.app, `/api/leads/${id}/trigger-generation`);
      await app.deps.background.idle();
      const lead = (await (await app.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } };
      expect(lead.lead.status).toBe('failed');
      expect((await prototypeQuota(app.deps).usage({ ip: null, email })).landing.used).toBe(0);
      expect(refusing.creates()).toBe(1);
    } finally {
      await app.close();
      await refusing.close();
    }
  });

  it('the watchdog restarts an attempt whose instance died', async () => {
    const id = await createLead(ctx.app);
    const pctx = prototypeContext(prototypePorts(ctx.deps));
    const lead = (await pctx.leads.get(id))!;
    await pctx.leads.reserve(lead);
    await pctx.leads.setStatus(id, 'generating');
    const dead = await startAttempt(ctx.deps.db, {
      leadId: id,
      kind: 'landing',
      language: 'en',
      generator: 'v0',
      origin: 'trigger',
      staleAfterMs: PROTOTYPE_LIMITS.staleAfterMs,
      now: Date.now() - 5 * 60_000,
    });
    await prototypeQueue(ctx.deps.jobs).enqueue({
      leadId: id,
      reason: 'watchdog',
      attemptId: dead.attempt.id,
    });
    await drainUntil(id, 'completed');
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({
      attempt: 2,
      status: 'completed',
      origin: 'queue',
    });
    expect(await status(id)).toBe('completed');
  });

  it('a blocking generation is watched too: were its instance to die, the queue would finish it', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const standIn = ctx.deps.prototypeGenerator;
    const generator: PrototypeGenerator = {
      name: 'builtin',
      generate: async (brief, options) => {
        await held;
        return standIn.generate(brief, options);
      },
    };
    const blocking = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: generator },
    });
    try {
      const id = await createLead(blocking.app);
      const answer = post(blocking.app, `/api/leads/${id}/generate`);
      await eventually(async () => (await latestAttempt(blocking.deps.db, id))?.status === 'generating');
      const attempt = (await latestAttempt(blocking.deps.db, id))!;
      // While the request still waits for the generator, the watchdog gets queued (just after the
      // attempt is stored: waited for, not expected at once).
      const watchdog = { leadId: id, reason: 'watchdog', attemptId: attempt.id };
      const pending = await eventually(async () => {
        const jobs = await blocking.deps.jobs.list(PROTOTYPE_QUEUE, { status: 'pending' });
        return jobs.some((j) => isDeepStrictEqual(j.payload, watchdog)) && jobs;
      });
      expect(pending.map((j) => j.payload)).toContainEqual(watchdog);
      expect((await latestAttempt(blocking.deps.db, id))?.status).toBe('generating');
      release();
      expect((await answer).status).toBe(200);
    } finally {
      release();
      await blocking.close();
    }
  });

  it('a watchdog for a healthy running attempt looks again later instead of starting another', async () => {
    const id = await createLead(ctx.app);
    const pctx = prototypeContext(prototypePorts(ctx.deps));
    await pctx.leads.setStatus(id, 'generating');
    const running = await startAttempt(ctx.deps.db, {
      leadId: id,
      kind: 'landing',
      language: 'en',
      generator: 'v0',
      origin: 'trigger',
      staleAfterMs: PROTOTYPE_LIMITS.staleAfterMs,
    });
    await prototypeQueue(ctx.deps.jobs).enqueue({
      leadId: id,
      reason: 'watchdog',
      attemptId: running.attempt.id,
    });
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({ attempt: 1, status: 'generating' });
    const pending = await ctx.deps.jobs.list(PROTOTYPE_QUEUE, { status: 'pending' });
    const next = pending.find((j) => (j.payload as { leadId: string }).leadId === id)!;
    expect(next.payload).toMatchObject({ reason: 'watchdog', attemptId: running.attempt.id });
    expect(next.runAt).toBeGreaterThan(Date.now() + PROTOTYPE_LIMITS.staleAfterMs / 2);
    await prototypeQueue(ctx.deps.jobs).clear();
  });
});
