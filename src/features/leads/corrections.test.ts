import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  ADMIN_KEY,
  correct,
  correctConcurrently,
  SPAM_TEXT,
  SPAMMER,
  VENDOR_SENDER,
  VENDOR_TEXT,
} from '../../../test/support/features/corrections.ts';
import {
  type LeadsWorld,
  postLead,
  startWorld,
  submission,
  uniqueEmail,
  worldEnv,
} from '../../../test/support/features/leads.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { CRM_QUEUE } from '../../integrations/crm/sync.ts';
import { getOutboxByKey } from '../../integrations/mail/outbox.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';
import { PROTOTYPE_QUEUE } from '../prototypes/queue.ts';
import { getLead } from './store.ts';

/**
 * POST /admin/api/leads/{id}/classification over HTTP, on SQLite and PostgreSQL: the side effects a
 * correction starts run exactly once however often (and however concurrently) it is sent, what it
 * stops never runs, and what already ran stays. The queues run only when a test drains them, so
 * "not run yet" is a state the test holds.
 */
const engines = await testEngines();

let world: LeadsWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const mailTo = (address: string) => world.smtp.messages.filter((m) => m.envelopeTo.includes(address));
const notificationsOf = (leadId: string) =>
  mailTo('sales@agency.example').filter((m) => m.text?.includes(leadId));
const dealsOf = (leadId: string) => world.pipedrive.deals.filter((d) => d.title.includes(leadId));

describe.each(engines)('lead classification corrections on %s', (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: worldEnv(world, { ADMIN_API_SECRET: ADMIN_KEY, PROTOTYPE_MONTHLY_LIMIT: '2' }),
      overrides: { backoffBaseMs: 1 },
    });
  });
  afterAll(() => server.close());

  /** Runs every queue a correction feeds until none has a due job left. */
  async function drainAll() {
    for (let round = 0; round < 20; round++) {
      let ran = 0;
      for (const queue of [EMAIL_QUEUE, CRM_QUEUE, PROTOTYPE_QUEUE])
        ran += await server.deps.worker.drain(queue);
      if (ran === 0) return;
    }
    throw new Error('the queues did not settle');
  }

  async function submit(body: unknown): Promise<string> {
    const res = await postLead(server, body);
    expect(res.status).toBe(200);
    return ((await res.json()) as { leadId: string }).leadId;
  }

  const spamLead = (email: string, steps: Record<string, unknown> = {}) =>
    submit(
      submission({
        personal: {
          ...SPAMMER,
          company: undefined,
          position: undefined,
          phone_number: undefined,
          email_address: email,
        },
        steps: { goal: SPAM_TEXT, ...steps },
      }),
    );
  const path = (id: string) => `/admin/api/leads/${id}/classification`;

  it('spam made a lead: e-mails, CRM deal and prototype exactly once, with concurrent and repeated requests', async () => {
    const email = uniqueEmail('spam-to-lead');
    const id = await spamLead(email, { prototype: 'landing' });
    expect((await getLead(server.deps.db, id))?.status).toBe('spam');

    const answers = await correctConcurrently(server, path(id), { classification: 'lead' }, 6);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const winners = answers.filter((a) => a.body.changed);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.correction).toMatchObject({
      from: 'spam',
      to: 'lead',
      started: [
        'confirmation e-mail',
        'notification e-mail',
        'CRM sync',
        'prototype (if the monthly quota allows)',
      ],
      stopped: [],
    });
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ classification: 'lead', status: 'new' });
      expect(answer.body.corrections).toHaveLength(1);
    }
    // A retry after the fact changes nothing either.
    const retry = await correct(server, path(id), { classification: 'lead' });
    expect(retry.body).toMatchObject({ changed: false, correction: null });

    await drainAll();
    expect(mailTo(email).map((m) => m.subject)).toHaveLength(1);
    expect(notificationsOf(id)).toHaveLength(1);
    expect(dealsOf(id)).toHaveLength(1);
    const lead = await getLead(server.deps.db, id);
    expect(lead).toMatchObject({ status: 'completed', classification: 'lead' });
    expect(lead?.pipedrive).toMatchObject({ success: true, leadId: dealsOf(id)[0]?.id });

    // Once everything ran, more corrections to the same class still add nothing.
    await correctConcurrently(server, path(id), { classification: 'lead' }, 4);
    await drainAll();
    expect(mailTo(email)).toHaveLength(1);
    expect(notificationsOf(id)).toHaveLength(1);
    expect(dealsOf(id)).toHaveLength(1);
  });

  it('a lead made spam: what has not run is cancelled and never runs; made a lead again, it runs once', async () => {
    const email = uniqueEmail('lead-to-spam');
    world.pipedrive.fail = () => true;
    let id: string;
    try {
      id = await submit(submission({ personal: { email_address: email }, steps: { prototype: undefined } }));
    } finally {
      world.pipedrive.fail = () => false;
    }
    // The e-mails and the CRM retry are queued, nothing has run.
    const spam = await correct(server, path(id), { classification: 'spam' });
    expect(spam.status).toBe(200);
    expect(spam.body).toMatchObject({ changed: true, status: 'spam', classification: 'spam' });
    expect(spam.body.correction).toMatchObject({
      stopped: ['confirmation e-mail', 'notification e-mail', 'CRM sync'],
      started: [],
      kept: [],
    });
    await drainAll();
    expect(mailTo(email)).toHaveLength(0);
    expect(notificationsOf(id)).toHaveLength(0);
    expect(dealsOf(id)).toHaveLength(0);
    expect((await getOutboxByKey(server.deps.db, `${id}:confirmation`))?.status).toBe('cancelled');
    // An admin cannot retry what was cancelled: no dead or pending job is left for it.
    const left = await server.deps.db
      .selectFrom('jobs')
      .select('status')
      .where('idempotency_key', 'in', [`${id}:confirmation`, `${id}:notification`, `${id}:crm`])
      .execute();
    expect(left).toEqual([]);

    const back = await correctConcurrently(server, path(id), { classification: 'lead' }, 3);
    expect(back.filter((a) => a.body.changed)).toHaveLength(1);
    await drainAll();
    expect(mailTo(email)).toHaveLength(1);
    expect(notificationsOf(id)).toHaveLength(1);
    expect(dealsOf(id)).toHaveLength(1);
    expect((await getOutboxByKey(server.deps.db, `${id}:confirmation`))?.status).toBe('sent');
    const detail = (await (
      await fetch(`${server.url}/admin/api/leads/${id}`, { headers: { 'x-admin-api-key': ADMIN_KEY } })
    ).json()) as { corrections: { from: string; to: string; fromStatus: string; toStatus: string }[] };
    expect(detail.corrections.map((c) => [c.from, c.to, c.fromStatus, c.toStatus])).toEqual([
      ['lead', 'spam', 'new', 'spam'],
      ['spam', 'lead', 'spam', 'new'],
    ]);
  });

  it('what already ran stays; a vendor gets one decline, however the lead is corrected afterwards', async () => {
    const email = uniqueEmail('lead-to-vendor');
    const id = await submit(
      submission({ personal: { email_address: email }, steps: { prototype: undefined } }),
    );
    await drainAll();
    expect(mailTo(email)).toHaveLength(1);
    const dealId = dealsOf(id)[0]?.id;

    const answers = await correctConcurrently(server, path(id), { classification: 'vendor' }, 4);
    const winner = answers.find((a) => a.body.changed);
    expect(answers.filter((a) => a.body.changed)).toHaveLength(1);
    expect(winner?.body.correction).toMatchObject({
      started: ['vendor decline e-mail'],
      stopped: [],
      kept: [
        'confirmation e-mail (already sent)',
        'notification e-mail (already sent)',
        `CRM deal #${dealId} (delete it in the CRM if unwanted)`,
      ],
    });
    await drainAll();
    expect(mailTo(email).map((m) => m.subject)).toEqual([expect.any(String), 'Thank you for reaching out']);

    // Back to lead, then vendor again: nothing is sent twice.
    const back = await correct(server, path(id), { classification: 'lead' });
    expect(back.body.correction?.started).toEqual([]);
    await correct(server, path(id), { classification: 'vendor' });
    await drainAll();
    expect(mailTo(email)).toHaveLength(2);
    expect(notificationsOf(id)).toHaveLength(1);
    expect(dealsOf(id)).toHaveLength(1);
  });

  it('a vendor made spam: its decline, not sent yet, is cancelled', async () => {
    const email = uniqueEmail('vendor-to-spam');
    const id = await submit(
      submission({
        personal: { ...VENDOR_SENDER, email_address: email },
        steps: { goal: VENDOR_TEXT, prototype: undefined },
      }),
    );
    expect((await getLead(server.deps.db, id))?.status).toBe('vendor');
    const answer = await correct(server, path(id), { classification: 'spam' });
    expect(answer.body.correction).toMatchObject({ stopped: ['vendor decline e-mail'], started: [] });
    await drainAll();
    expect(mailTo(email)).toHaveLength(0);
  });

  it('made a lead when the monthly prototype quota is used up: everything but the prototype', async () => {
    const email = uniqueEmail('quota-spent');
    const spamId = await spamLead(email, { prototype: 'landing' });
    // The same visitor then uses both landing prototypes of the month.
    for (const goal of ['A landing page for our bakery', 'A landing page for our second shop']) {
      const id = await submit(submission({ personal: { email_address: email }, steps: { goal } }));
      const made = await fetch(`${server.url}/api/leads/${id}/generate`, { method: 'POST' });
      expect(made.status).toBe(200);
    }
    const answer = await correct(server, path(spamId), { classification: 'lead' });
    expect(answer.body.changed).toBe(true);
    await drainAll();
    expect(await getLead(server.deps.db, spamId)).toMatchObject({ status: 'new', classification: 'lead' });
    const attempts = await server.deps.db
      .selectFrom('prototype_attempts')
      .select('id')
      .where('lead_id', '=', spamId)
      .execute();
    expect(attempts).toEqual([]);
    expect(dealsOf(spamId)).toHaveLength(1);
  });

  it('401 without the admin key, 404 for an unknown lead, 400 for anything but lead, spam or vendor', async () => {
    const id = await submit(submission({ steps: { prototype: undefined } }));
    expect((await correct(server, path(id), { classification: 'spam' }, { key: null })).status).toBe(401);
    expect((await correct(server, path(id), { classification: 'spam' }, { key: 'wrong' })).status).toBe(401);
    const unknown = await correct(server, path('6f1c2e58-0a0b-4e8a-9b1e-2f0a4c1d9e77'), {
      classification: 'spam',
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    for (const body of [
      { classification: 'maybe' },
      { classification: 'Lead' },
      { classification: null },
      {},
      ['lead'],
      '{"classification":',
    ]) {
      const answer = await correct(server, path(id), body);
      expect(answer, JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR' } },
      });
    }
    expect(
      (await correct(server, path(id), 'classification=lead', { contentType: 'text/plain' })).status,
    ).toBe(415);
    // None of them changed the lead.
    expect(await getLead(server.deps.db, id)).toMatchObject({ status: 'new', classification: 'lead' });
    const corrections = await server.deps.db
      .selectFrom('classification_corrections')
      .select('id')
      .where('record_id', '=', id)
      .execute();
    expect(corrections).toEqual([]);
  });
});
