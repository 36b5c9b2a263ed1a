import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { createLead, post, readEvents } from '../../../test/support/features/prototypes.ts';
import { completion, sendSse, startLlmStandIn } from '../../../test/support/llm-stand-in.ts';
import { type StandInHandler, sendJson } from '../../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { backoffDelayMs } from '../../queue/job-queue.ts';
import { prototypeQuota } from '../leads/port.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import { errorMessage } from './messages.ts';
import { PROTOTYPE_QUEUE } from './queue.ts';
import { eventsAfter, latestAttempt } from './store.ts';

const PAGE = `<!doctype html><html><head><title>Hotel Sol</title></head><body><h1>Hotel Sol</h1>${'<p>Rooms by the sea, breakfast included, book direct for the best rate.</p>'.repeat(4)}</body></html>`;

it('the queue backoff spreads a prototype job’s attempts over at least the outage it rides out', () => {
  // The shortest schedule the jitter allows (every delay at 80 %).
  let shortest = 0;
  for (let attempt = 1; attempt < PROTOTYPE_LIMITS.queueMaxAttempts; attempt++) {
    shortest += backoffDelayMs(attempt, undefined, () => 0);
  }
  expect(shortest).toBeGreaterThanOrEqual(PROTOTYPE_LIMITS.outageRiddenOutMs);
});

/**
 * The language model behind PROTOTYPE_GENERATOR=llm down (500) for a while, then back. The queue's
 * clock is the test's: each step jumps to the next retry's due time, so hours of backoff take seconds.
 */
describe.each(await testEngines())('a model outage, ridden out by PrototypeQueue, on %s', (engine) => {
  let ctx: TestContext;
  let llm: Awaited<ReturnType<typeof startLlmStandIn>>;
  let now = Date.UTC(2026, 10, 2, 9);
  const clock = () => now;
  /** The model answering: a page for a prototype (streamed), a verdict for a classification. */
  const up: StandInHandler = (request, res) => {
    if ((JSON.parse(request.body) as { stream?: boolean }).stream) return sendSse(res, [PAGE]);
    sendJson(res, 200, completion('{"classification": "lead", "reason": "a genuine project"}'));
  };
  const down: StandInHandler = (_request, res) => sendJson(res, 500, { error: { message: 'overloaded' } });

  beforeAll(async () => {
    llm = await startLlmStandIn(() => '');
    llm.setHandler(up);
    ctx = await createTestApp({
      engine,
      env: {
        TRUST_PROXY: 'xff',
        PUBLIC_BASE_URL: 'https://api.agency.example',
        PROTOTYPE_GENERATOR: 'llm',
        AI_BASE_URL: `${llm.url}/v1`,
        AI_MODEL: 'stand-in',
      },
      overrides: { queueClock: clock },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await llm.close();
  });

  const status = async (id: string) =>
    ((await (await ctx.app.request(`/api/leads/${id}`)).json()) as { lead: { status: string } }).lead.status;

  /** Runs the lead's due retries, then moves the queue's clock to the next one's due time. */
  async function step(id: string): Promise<boolean> {
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    const pending = (await ctx.deps.jobs.list(PROTOTYPE_QUEUE, { status: 'pending', limit: 500 })).filter(
      (job) => (job.payload as { leadId: string }).leadId === id,
    );
    if (pending.length === 0) return false;
    now = Math.max(now, Math.min(...pending.map((job) => job.runAt)));
    return true;
  }

  it('stays generating with its slot held for over an hour, saying so; completes once the model is back', async () => {
    // The model goes down: every call answers 500.
    const original = llm.requests.length;
    llm.setHandler(down);
    const email = `outage.${now}@example.com`;
    const id = await createLead(ctx.app, { personal: { email_address: email } });
    const startedAt = now;
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    await ctx.deps.background.idle();

    while (now - startedAt < PROTOTYPE_LIMITS.outageRiddenOutMs + 60_000) {
      expect(await step(id)).toBe(true);
      expect(await status(id)).toBe('generating');
      expect(await prototypeQuota(ctx.deps).usage({ ip: null, email })).toMatchObject({
        landing: { used: 1 },
        inProgress: true,
      });
    }
    expect(llm.requests.length - original).toBeGreaterThan(PROTOTYPE_LIMITS.queueMaxAttempts / 2);

    // Meanwhile the visitor reads "trying again", never a final error; the preview shows progress.
    const errors = (await eventsAfter(ctx.deps.db, id, 0, 1000))
      .filter((e) => e.event === 'error')
      .map((e) => JSON.parse(e.data) as { retrying: boolean; message: string });
    expect(errors.length).toBeGreaterThan(3);
    expect(errors.every((e) => e.retrying && e.message === errorMessage('en', 'retrying'))).toBe(true);
    const preview = await (await ctx.app.request(`/api/leads/${id}/preview`)).text();
    expect(preview).toContain('data-state="generating"');
    const stream = await ctx.app.request(`/api/leads/${id}/generate-stream`);
    const seen = await readEvents(stream, 3);
    expect(seen.some((e) => e.event === 'complete' || e.data.retrying === false)).toBe(false);
    await ctx.deps.background.idle();

    // The model is back: the next retry completes it, the slot counted once.
    llm.setHandler(up);
    for (let i = 0; i < 3 && (await status(id)) !== 'completed'; i++) await step(id);
    expect(await status(id)).toBe('completed');
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({ status: 'completed', generator: 'llm' });
    expect(await prototypeQuota(ctx.deps).usage({ ip: null, email })).toMatchObject({
      landing: { used: 1 },
      inProgress: false,
    });
    const replay = await readEvents(await ctx.app.request(`/api/leads/${id}/generate-stream`));
    expect(replay.at(-1)?.event).toBe('complete');
  });

  it('fails the lead only once the whole schedule is used up: past the hour, slot released, one final error', async () => {
    llm.setHandler(down);
    const email = `gone.${now}@example.com`;
    const id = await createLead(ctx.app, { personal: { email_address: email } });
    const startedAt = now;
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    await ctx.deps.background.idle();
    for (let steps = 0; (await status(id)) === 'generating'; steps++) {
      expect(steps).toBeLessThan(100);
      await step(id);
    }
    // Failed by the drain that ran the last retry, due past the hour.
    expect(await status(id)).toBe('failed');
    expect(now - startedAt).toBeGreaterThanOrEqual(PROTOTYPE_LIMITS.outageRiddenOutMs);
    // The background attempt and one per queue attempt.
    expect(await latestAttempt(ctx.deps.db, id)).toMatchObject({
      attempt: 1 + PROTOTYPE_LIMITS.queueMaxAttempts,
      status: 'failed',
    });
    expect(await prototypeQuota(ctx.deps).usage({ ip: null, email })).toMatchObject({
      landing: { used: 0 },
      inProgress: false,
    });
    const dead = await ctx.deps.jobs.list(PROTOTYPE_QUEUE, { status: 'dead', limit: 500 });
    expect(dead.find((j) => (j.payload as { leadId: string }).leadId === id)).toMatchObject({
      attempts: PROTOTYPE_LIMITS.queueMaxAttempts,
    });
    // Streams saw each retry announced, then one final error.
    const errors = (await eventsAfter(ctx.deps.db, id, 0, 1000))
      .filter((e) => e.event === 'error')
      .map((e) => JSON.parse(e.data) as { retrying: boolean });
    expect(errors.at(-1)!.retrying).toBe(false);
    expect(errors.filter((e) => !e.retrying)).toHaveLength(1);
    const preview = await (await ctx.app.request(`/api/leads/${id}/preview`)).text();
    expect(preview).toContain('data-state="failed"');
  });
});
