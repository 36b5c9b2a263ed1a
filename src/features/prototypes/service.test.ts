import { type KyselyPlugin, SelectQueryNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { CHAT_KEY, createLead, eventually, post } from '../../../test/support/features/prototypes.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { BuiltinPrototypeGenerator } from '../../integrations/prototype-generator/builtin/builtin-generator.ts';
import {
  PrototypeGenerationError,
  type PrototypeGenerator,
} from '../../integrations/prototype-generator/types.ts';
import { prototypeContext, prototypePorts } from './context.ts';
import { beginAttempt, finalizeFailure, type PrototypeContext, runAttempt } from './generation.ts';
import { handlePrototypeJob, PROTOTYPE_QUEUE } from './queue.ts';
import { generateNow } from './service.ts';
import { latestAttempt, startAttempt } from './store.ts';

/**
 * A generator whose first run waits for the test, then fails in a way PrototypeQueue retries; every
 * later run is the built-in one.
 */
function failsOnceWhenReleased() {
  const inner = new BuiltinPrototypeGenerator();
  let runs = 0;
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  const generator: PrototypeGenerator = {
    name: 'builtin',
    async generate(brief, options) {
      if (++runs > 1) return inner.generate(brief, options);
      await options.onProgress({ step: 'generating', percent: 20 });
      await released;
      throw new PrototypeGenerationError('the outside service hiccuped', { retryable: true });
    },
  };
  return { generator, release, runs: () => runs };
}

/**
 * The context of one blocking request, with its own database handle that reports when the request
 * reads the running attempt a second time: it is then waiting for that attempt (deterministic, no
 * timing).
 */
function observedContext(ctx: TestContext, extra: Partial<PrototypeContext> = {}) {
  let attemptReads = 0;
  let waiting: () => void = () => {};
  const isWaiting = new Promise<void>((resolve) => {
    waiting = resolve;
  });
  const observer: KyselyPlugin = {
    transformQuery({ node }) {
      if (SelectQueryNode.is(node) && JSON.stringify(node.from).includes('"prototype_attempts"')) {
        if (++attemptReads === 2) waiting();
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const context: PrototypeContext = {
    ...prototypeContext(prototypePorts(ctx.deps)),
    db: ctx.deps.db.withPlugin(observer),
    ...extra,
  };
  return { context, isWaiting };
}

describe.each(await testEngines())('blocking generation waiting for a running attempt on %s', (engine) => {
  const flaky = failsOnceWhenReleased();
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      engine,
      env: { CHAT_API_SECRET: CHAT_KEY, TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: flaky.generator },
    });
  });
  afterAll(() => ctx.close());

  it('a failure that PrototypeQueue will retry is not reported as the end: the request carries on', async () => {
    const id = await createLead(ctx.app);
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    await eventually(async () => (await latestAttempt(ctx.deps.db, id))?.step === 'generating');
    const { context, isWaiting } = observedContext(ctx);
    const outcome = generateNow(context, id, 'generate');
    await isWaiting;
    flaky.release();
    // The background run failed with a retry pending (the lead still waits for its prototype); the
    // blocking request answers the real outcome instead of a failure the lead does not have.
    expect(await outcome).toMatchObject({ status: 'completed' });
    await ctx.deps.background.idle();
    const lead = (await (await ctx.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } };
    expect(lead.lead.status).toBe('completed');
    expect(flaky.runs()).toBe(2);
  });

  it('a shutdown while waiting for an attempt running elsewhere answers "handed over", not an error', async () => {
    const id = await createLead(ctx.app);
    const lead = await prototypePorts(ctx.deps).leads.get(id);
    // An attempt another instance is running (fresh heartbeat); this instance is shutting down.
    await prototypePorts(ctx.deps).leads.setStatus(id, 'generating');
    await startAttempt(ctx.deps.db, {
      leadId: id,
      kind: lead!.kind!,
      language: lead!.language,
      generator: 'builtin',
      origin: 'trigger',
      staleAfterMs: 45_000,
    });
    const shutdown = new AbortController();
    shutdown.abort();
    const { context } = observedContext(ctx, {
      shutdownSignal: shutdown.signal,
      limits: { blockingWaitMs: 1_000 },
    });
    expect(await generateNow(context, id, 'generate')).toMatchObject({
      status: 'failed',
      handedOver: true,
    });
    expect((await latestAttempt(ctx.deps.db, id))?.status).toBe('generating');
  });
});

describe.each(await testEngines())('the end of a failed generation on %s', (engine) => {
  const inner = new BuiltinPrototypeGenerator();
  let runs = 0;
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  // The first run fails for good; the second (the visitor's retry) waits for the test.
  const generator: PrototypeGenerator = {
    name: 'builtin',
    async generate(brief, options) {
      if (++runs === 1) throw new PrototypeGenerationError('refused', { retryable: false });
      await options.onProgress({ step: 'generating', percent: 20 });
      await released;
      return inner.generate(brief, options);
    },
  };
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      engine,
      env: { TRUST_PROXY: 'xff' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: generator },
    });
  });
  afterAll(() => ctx.close());

  it("a late end of the old generation (the queue's onDead) leaves the visitor's fresh restart alone", async () => {
    const id = await createLead(ctx.app);
    expect((await post(ctx.app, `/api/leads/${id}/generate`)).status).toBe(502);
    // The visitor presses "Try again": a new attempt runs.
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    await eventually(async () => (await latestAttempt(ctx.deps.db, id))?.step === 'generating');
    // What the dead job's onDead does, arriving after the restart.
    await finalizeFailure(prototypeContext(prototypePorts(ctx.deps)), id);
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({ attempt: 2, status: 'generating' });
    expect((await prototypePorts(ctx.deps).leads.get(id))?.status).toBe('generating');
    release();
    await ctx.deps.background.idle();
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({ attempt: 2, status: 'completed' });
    expect((await prototypePorts(ctx.deps).leads.get(id))?.status).toBe('completed');
  });
});

describe.each(await testEngines())(
  'a generation stored as completed whose lead update failed, on %s',
  (engine) => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestApp({ engine, env: { TRUST_PROXY: 'xff' }, overrides: { backoffBaseMs: 1 } });
    });
    afterAll(() => ctx.close());

    /** The context whose leads port fails the first `completed` update (the database between two writes). */
    function failingFirstCompletion(): PrototypeContext {
      const base = prototypeContext(prototypePorts(ctx.deps));
      let failed = false;
      const leads = new Proxy(base.leads, {
        get(target, name) {
          if (name === 'setStatus') {
            return async (leadId: string, status: 'generating' | 'completed' | 'failed') => {
              if (status === 'completed' && !failed) {
                failed = true;
                throw new Error('connection lost');
              }
              return target.setStatus(leadId, status);
            };
          }
          const value = Reflect.get(target, name);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { ...base, leads };
    }

    it('blocking: the lead ends completed with its prototype, not failed', async () => {
      const id = await createLead(ctx.app);
      const outcome = await generateNow(failingFirstCompletion(), id, 'generate');
      // The failed update is retryable: not the lead's end, its retry job finishes it.
      expect(outcome).toMatchObject({ status: 'failed', final: false });
      expect((await latestAttempt(ctx.deps.db, id))?.status).toBe('completed');
      await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
      expect((await prototypePorts(ctx.deps).leads.get(id))?.status).toBe('completed');
    });

    it('background: the retry job finishes the lead instead of leaving it generating', async () => {
      const id = await createLead(ctx.app);
      const context = failingFirstCompletion();
      const lead = (await context.leads.get(id))!;
      await context.leads.setStatus(id, 'generating');
      const { attempt } = await beginAttempt(context, lead, 'queue');
      expect(await runAttempt(context, attempt, lead, 'background')).toMatchObject({ status: 'failed' });
      expect((await context.leads.get(id))?.status).toBe('generating');
      await handlePrototypeJob(context, { leadId: id, reason: 'retry' }, { attempt: 1, maxAttempts: 3 });
      expect((await prototypePorts(ctx.deps).leads.get(id))?.status).toBe('completed');
    });
  },
);
