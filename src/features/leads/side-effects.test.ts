import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  type LeadsWorld,
  leadsApp,
  postLead,
  startWorld,
  submission,
  uniqueEmail,
  worldEnv,
} from '../../../test/support/features/leads.ts';
import { startSmtpStandIn, unusedPort } from '../../../test/support/smtp-stand-in.ts';
import type { RecordedRequest } from '../../../test/support/stand-in.ts';
import type { TestContext } from '../../../test/support/test-app.ts';
import { CRM_SAFETY_NET_DELAY_MS } from '../../integrations/crm/sync.ts';
import { listOutbox } from '../../integrations/mail/outbox.ts';
import { EMAIL_QUEUE, emailQueueStatus, enqueueEmail } from '../../integrations/mail/queue.ts';
import { CRM_QUEUE } from './crm-sync.ts';
import { getLead } from './store.ts';

const engines = await testEngines();

let world: LeadsWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

/** Runs a queue until it has nothing due, a few rounds (retries are due after ~1 ms in tests). */
async function drainUntil(ctx: TestContext, queue: string, done: () => Promise<boolean>) {
  for (let round = 0; round < 200; round++) {
    await ctx.deps.worker.drain(queue);
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${queue} did not settle`);
}

describe.each(engines)('CRM sync on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await leadsApp(engine, worldEnv(world));
  });
  afterAll(() => ctx.close());

  it('CRM down: the lead is kept, the response says so, and the queue syncs it once the CRM is back', async () => {
    world.pipedrive.fail = () => true;
    try {
      const res = await postLead(ctx, submission({ personal: { email_address: uniqueEmail('crm-down') } }));
      expect(res.status).toBe(200);
      const created = (await res.json()) as { leadId: string; pipedrive: unknown };
      expect(created.pipedrive).toEqual({
        success: false,
        leadId: null,
        message: 'CRM sync failed; it will be retried in the background',
      });
      expect((await getLead(ctx.deps.db, created.leadId))?.status).toBe('new');
      // Still down: the retry fails and stays pending.
      await ctx.deps.worker.drain(CRM_QUEUE);
      expect((await ctx.deps.jobs.status(CRM_QUEUE)).counts.pending).toBe(1);

      world.pipedrive.fail = () => false;
      await drainUntil(
        ctx,
        CRM_QUEUE,
        async () => (await getLead(ctx.deps.db, created.leadId))?.pipedrive?.success === true,
      );
      const lead = await getLead(ctx.deps.db, created.leadId);
      expect(lead?.pipedrive).toMatchObject({ success: true, leadId: expect.any(Number) });
      expect(world.pipedrive.deals.filter((d) => d.title.includes(created.leadId))).toHaveLength(1);
      expect(world.pipedrive.notes.filter((n) => n.deal_id === lead?.pipedrive?.leadId)).toHaveLength(1);
    } finally {
      world.pipedrive.fail = () => false;
    }
  });

  it('the CRM job is queued with the lead (a process dying mid-sync loses nothing) and is a no-op after success', async () => {
    const res = await postLead(ctx, submission({ personal: { email_address: uniqueEmail('crm-net') } }));
    const created = (await res.json()) as { leadId: string; pipedrive: { success: boolean } };
    expect(created.pipedrive.success).toBe(true);
    const job = await ctx.deps.db
      .selectFrom('jobs')
      .select(['status', 'run_at'])
      .where('queue', '=', CRM_QUEUE)
      .where('idempotency_key', '=', `${created.leadId}:crm`)
      .executeTakeFirstOrThrow();
    // Delayed well beyond the in-request attempt, so it never runs beside it.
    expect(job.status).toBe('pending');
    expect(Number(job.run_at)).toBeGreaterThan(Date.now() + CRM_SAFETY_NET_DELAY_MS / 2);
    const calls = world.pipedrive.calls().length;
    expect(await ctx.deps.jobs.expedite(CRM_QUEUE, `${created.leadId}:crm`)).toBe(true);
    await ctx.deps.worker.drain(CRM_QUEUE);
    expect(world.pipedrive.calls().length).toBe(calls);
    expect((await getLead(ctx.deps.db, created.leadId))?.pipedrive).toMatchObject({
      success: true,
      message: 'Synced to Pipedrive',
    });
  });

  /**
   * Posts a lead while the CRM answers `fail`, then lets the CRM queue retry it with the CRM back,
   * and checks the lead ended with exactly one deal carrying one note. Returns the POST's answer.
   */
  async function syncThroughFailure(fail: (req: RecordedRequest) => boolean, label: string) {
    world.pipedrive.fail = fail;
    try {
      const res = await postLead(ctx, submission({ personal: { email_address: uniqueEmail(label) } }));
      const created = (await res.json()) as { leadId: string; pipedrive: { success: boolean } };
      world.pipedrive.fail = () => false;
      await drainUntil(
        ctx,
        CRM_QUEUE,
        async () => (await getLead(ctx.deps.db, created.leadId))?.pipedrive?.success === true,
      );
      const deals = world.pipedrive.deals.filter((d) => d.title.includes(created.leadId));
      expect(deals).toHaveLength(1);
      expect(world.pipedrive.notes.filter((n) => n.deal_id === deals[0]?.id)).toHaveLength(1);
      return created;
    } finally {
      world.pipedrive.fail = () => false;
    }
  }

  it('a failure after the deal was created never creates a second deal', async () => {
    // The note fails: the deal exists, its id is kept, the retry only adds the note.
    const created = await syncThroughFailure(
      (req) => req.method === 'POST' && req.url.startsWith('/v1/notes'),
      'crm-half',
    );
    expect(created.pipedrive.success).toBe(false);
  });

  // The object is created but the answer is lost (the stand-in stores it, then answers 500): the
  // retry finds it (the deal by the lead id in its title, the note by the lead id in the deal's
  // notes) instead of creating a second one.
  const keepThenFail: Record<'deals' | 'notes', (body: Record<string, unknown>) => void> = {
    deals: (body) =>
      world.pipedrive.deals.push({
        id: 999_000 + world.pipedrive.deals.length,
        title: String(body.title),
        person_id: Number(body.person_id),
        org_id: null,
      }),
    notes: (body) =>
      world.pipedrive.notes.push({
        id: 998_000 + world.pipedrive.notes.length,
        content: String(body.content),
        deal_id: Number(body.deal_id),
      }),
  };
  const ENDPOINT = { deals: '/api/v2/deals', notes: '/v1/notes' };
  it.each(['deals', 'notes'] as const)(
    '%s created by an attempt whose answer was lost are found, not duplicated',
    async (kind) => {
      let lost = false;
      await syncThroughFailure((req) => {
        if (lost || req.method !== 'POST' || !req.url.startsWith(ENDPOINT[kind])) return false;
        lost = true;
        keepThenFail[kind](JSON.parse(req.body) as Record<string, unknown>);
        return true;
      }, `crm-lost-${kind}`);
    },
  );

  it('the same e-mail and company reuse the Pipedrive person and organization', async () => {
    const email = uniqueEmail('repeat');
    const company = `Repeat Co ${email}`;
    const first = (await (
      await postLead(ctx, submission({ personal: { email_address: email, company } }))
    ).json()) as {
      pipedrive: { leadId: number };
    };
    const second = (await (
      await postLead(
        ctx,
        submission({ personal: { email_address: email, company }, steps: { goal: 'A second project' } }),
      )
    ).json()) as { pipedrive: { leadId: number } };
    expect(second.pipedrive.leadId).not.toBe(first.pipedrive.leadId);
    expect(world.pipedrive.persons.filter((p) => p.email === email)).toHaveLength(1);
    expect(world.pipedrive.organizations.filter((o) => o.name === company)).toHaveLength(1);
  });

  it('Pipedrive is reached on API v2 (v1 notes), the token in x-api-token and never in a URL', async () => {
    const seen = world.pipedrive.standIn.requests.length;
    const email = uniqueEmail('v2');
    const res = await postLead(
      ctx,
      submission({ personal: { email_address: email, company: `V2 ${email}` } }),
    );
    expect(((await res.json()) as { pipedrive: { success: boolean } }).pipedrive.success).toBe(true);
    const requests = world.pipedrive.standIn.requests.slice(seen);
    expect(requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'GET /api/v2/organizations/search',
      'POST /api/v2/organizations',
      'GET /api/v2/persons/search',
      'POST /api/v2/persons',
      'POST /api/v2/deals',
      'POST /v1/notes',
    ]);
    for (const r of requests) {
      expect(r.headers['x-api-token']).toBe(world.pipedrive.token);
      expect(r.url).not.toContain(world.pipedrive.token);
    }
    const person = world.pipedrive.persons.find((p) => p.email === email);
    expect(person?.org_id).toBe(world.pipedrive.organizations.find((o) => o.name === `V2 ${email}`)?.id);
  });
});

describe.each(engines)('e-mail delivery on %s', (engine) => {
  it('SMTP down: mail waits in the queue and is delivered once the server is back', async () => {
    const port = await unusedPort();
    // Retries come due after ~200 ms, so one drain makes exactly one attempt per message.
    const ctx = await leadsApp(engine, worldEnv(world, { SMTP_URL: `smtp://127.0.0.1:${port}` }), 200);
    try {
      const email = uniqueEmail('smtp-down');
      const res = await postLead(ctx, submission({ personal: { email_address: email } }));
      expect(res.status).toBe(200);
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      let outbox = await listOutbox(ctx.deps.db);
      expect(outbox.messages.map((m) => m.status)).toEqual(['retrying', 'retrying']);
      expect(outbox.messages[0]?.attempts).toBeGreaterThanOrEqual(1);
      expect(outbox.messages[0]?.lastError).toBeTruthy();
      expect((await emailQueueStatus(ctx.deps)).queue.counts.pending).toBe(2);

      const smtp = await startSmtpStandIn(port);
      try {
        await drainUntil(ctx, EMAIL_QUEUE, async () => smtp.messages.length === 2);
        expect(smtp.messages.map((m) => m.subject).sort()).toEqual([
          'New lead: Ana García (Hotel Sol)',
          'We received your request',
        ]);
        outbox = await listOutbox(ctx.deps.db);
        expect(outbox.messages.every((m) => m.status === 'sent' && m.sentAt !== null)).toBe(true);
        const status = await emailQueueStatus(ctx.deps);
        expect(status).toMatchObject({ transport: 'smtp', outbox: { sent: 2 } });
        expect(status.queue.counts.completed).toBe(2);
      } finally {
        await smtp.close();
      }
    } finally {
      await ctx.close();
    }
  });

  it('a permanent refusal (550) is not retried: the job is dead at once, the outbox says why', async () => {
    const smtp = await startSmtpStandIn(0, { refuse: (address) => address.endsWith('@nowhere.example') });
    const ctx = await leadsApp(engine, worldEnv(world, { SMTP_URL: smtp.url }));
    try {
      await enqueueEmail(
        ctx.deps,
        { to: 'gone@nowhere.example', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' },
        'test:refused-everywhere',
      );
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      const [row] = (await listOutbox(ctx.deps.db)).messages;
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row?.lastError).toMatch(/550|No such mailbox/);
      expect((await emailQueueStatus(ctx.deps)).queue.counts).toMatchObject({ dead: 1, pending: 0 });
      expect(smtp.messages).toHaveLength(0);
      // The failure is logged (the server's reply and codes), the refused address is not.
      const logged = ctx.logs.raw.join('');
      expect(logged).toMatch(/job failed/);
      expect(logged).toMatch(/550/);
      expect(logged).not.toContain('nowhere.example');
    } finally {
      await ctx.close();
      await smtp.close();
    }
  });

  it('a recipient refused while the others are accepted: sent once, the refusal recorded', async () => {
    const smtp = await startSmtpStandIn(0, { refuse: (address) => address === 'crm@nowhere.example' });
    const ctx = await leadsApp(engine, worldEnv(world, { SMTP_URL: smtp.url }));
    try {
      await enqueueEmail(
        ctx.deps,
        {
          to: 'ana@agency.example',
          bcc: 'crm@nowhere.example',
          subject: 'Hi',
          text: 'Hi',
          html: '<p>Hi</p>',
        },
        'test:refused-bcc',
      );
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      expect(smtp.messages.map((m) => m.envelopeTo)).toEqual([['ana@agency.example']]);
      const [row] = (await listOutbox(ctx.deps.db)).messages;
      expect(row).toMatchObject({ status: 'sent', attempts: 1 });
      expect(row?.lastError).toBe('The server refused crm@nowhere.example.');
      // The outbox row (erased with the person) keeps the address; the log line only the count.
      expect(ctx.logs.lines).toContainEqual(
        expect.objectContaining({ msg: 'recipients refused', refused: 1 }),
      );
      expect(ctx.logs.raw.join('')).not.toContain('nowhere.example');
    } finally {
      await ctx.close();
      await smtp.close();
    }
  });

  it('other features enqueue their own mail with attachments, once per idempotency key', async () => {
    const ctx = await leadsApp(engine, worldEnv(world));
    try {
      const to = uniqueEmail('ticket');
      const message = {
        to,
        bcc: 'crm@agency.example',
        subject: 'Ticket TICKET-20261121-ABC123',
        text: 'Your ticket',
        html: '<p>Your ticket</p>',
        attachments: [
          {
            filename: 'log.txt',
            contentType: 'text/plain',
            contentBase64: Buffer.from('hello').toString('base64'),
          },
        ],
      };
      const first = await enqueueEmail(ctx.deps, message, 'ticket:TICKET-20261121-ABC123');
      const again = await enqueueEmail(ctx.deps, message, 'ticket:TICKET-20261121-ABC123');
      expect(again).toMatchObject({ outboxId: first.outboxId, jobId: first.jobId, created: false });
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      const received = world.smtp.messages.filter((m) => m.envelopeTo.includes(to));
      expect(received).toHaveLength(1);
      expect(received[0]?.attachments[0]?.filename).toBe('log.txt');
      expect(received[0]?.attachments[0]?.content.toString()).toBe('hello');
      expect(
        world.smtp.messages.some(
          (m) => m.envelopeTo.includes('crm@agency.example') && m.subject === message.subject,
        ),
      ).toBe(true);
      const [row] = (await listOutbox(ctx.deps.db)).messages;
      expect(row).toMatchObject({
        to: [to],
        bcc: ['crm@agency.example'],
        attachments: [{ filename: 'log.txt', contentType: 'text/plain', size: 5, source: 'inline' }],
        status: 'sent',
        attempts: 1,
      });
    } finally {
      await ctx.close();
    }
  });
});
