import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { ADMIN_KEY } from '../../../test/support/features/corrections.ts';
import { createLead, gatedGenerator, post } from '../../../test/support/features/prototypes.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { getLead } from '../leads/port.ts';
import { PROTOTYPE_QUEUE } from './queue.ts';
import { latestAttempt } from './store.ts';

/** An admin's corrections of a lead meet its prototype: what runs finishes, nothing new starts. */
describe.each(await testEngines())('prototypes of corrected leads on %s', (engine) => {
  const gate = gatedGenerator();
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      engine,
      env: { ADMIN_API_SECRET: ADMIN_KEY, TRUST_PROXY: 'xff', PUBLIC_BASE_URL: 'https://api.agency.example' },
      overrides: { backoffBaseMs: 1, prototypeGenerator: gate.generator },
    });
  });
  afterAll(() => ctx.close());

  const correct = async (id: string, classification: string) => {
    const res = await ctx.app.request(`/admin/api/leads/${id}/classification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-api-key': ADMIN_KEY },
      body: JSON.stringify({ classification }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; correction: { stopped: string[]; kept: string[] } };
  };
  const holds = (leadId: string) =>
    ctx.deps.db
      .selectFrom('prototype_quota_holds')
      .select(['in_progress'])
      .where('lead_id', '=', leadId)
      .execute();

  it('marked spam mid-generation: the run finishes, the lead stays spam; made a lead again, it completes without a second run', async () => {
    gate.close();
    const id = await createLead(ctx.app);
    expect((await post(ctx.app, `/api/leads/${id}/trigger-generation`)).status).toBe(200);
    expect((await getLead(ctx.deps.db, id))?.status).toBe('generating');

    const spam = await correct(id, 'spam');
    expect(spam.status).toBe('spam');
    expect(spam.correction.stopped).toContain('prototype generation');
    gate.open();
    await ctx.deps.background.idle();
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect((await getLead(ctx.deps.db, id))?.status).toBe('spam');
    expect((await latestAttempt(ctx.deps.db, id))?.status).toBe('completed');
    expect((await holds(id)).map((h) => Number(h.in_progress))).not.toContain(1);

    const lead = await correct(id, 'lead');
    expect(lead.status).toBe('new');
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect((await getLead(ctx.deps.db, id))?.status).toBe('completed');
    const attempts = await ctx.deps.db
      .selectFrom('prototype_attempts')
      .select('id')
      .where('lead_id', '=', id)
      .execute();
    expect(attempts).toHaveLength(1);
  });

  it('marked spam again before the queued generation ran: nothing is generated, no quota slot taken', async () => {
    gate.open();
    const id = await createLead(ctx.app);
    // Made a lead by a correction whose prototype job the queue has not run yet, then spam again.
    await correct(id, 'spam');
    await correct(id, 'lead');
    const spam = await correct(id, 'spam');
    expect(spam.status).toBe('spam');
    await ctx.deps.worker.drain(PROTOTYPE_QUEUE);
    expect((await getLead(ctx.deps.db, id))?.status).toBe('spam');
    expect(await latestAttempt(ctx.deps.db, id)).toBeNull();
    expect(await holds(id)).toEqual([]);
  });
});
