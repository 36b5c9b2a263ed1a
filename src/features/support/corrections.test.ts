import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  ADMIN_KEY,
  correct,
  correctConcurrently,
  SPAM_TEXT,
  VENDOR_SENDER,
  VENDOR_TEXT,
} from '../../../test/support/features/corrections.ts';
import {
  CRM_BCC,
  freshIp,
  mailTo,
  type ServedApp,
  SUPPORT_EMAIL,
  type SupportWorld,
  serveApp,
  startWorld,
  uniqueEmail,
} from '../../../test/support/features/support.ts';
import { CRM_QUEUE } from '../../integrations/crm/sync.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';
import { getSupportMessage } from './store.ts';

/**
 * POST /admin/api/support/messages/{id}/classification and GET /admin/api/support/messages over
 * HTTP, on SQLite and PostgreSQL: the contact e-mail and the CRM deal a spam message skipped run
 * exactly once when it is made a lead, whatever the repeats; what has not run is cancelled.
 */
const engines = await testEngines();

let world: SupportWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const dealsOf = (id: string) => world.pipedrive.deals.filter((d) => d.title.includes(id));
const contactMailsOf = (id: string) =>
  mailTo(world, SUPPORT_EMAIL).filter((m) => m.text?.includes(id) || m.subject?.includes(id));

describe.each(engines)('support message classification corrections on %s', (engine) => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serveApp(engine, world, { ADMIN_API_SECRET: ADMIN_KEY });
  });
  afterAll(() => app.close());

  async function drainAll() {
    for (let round = 0; round < 20; round++) {
      let ran = 0;
      for (const queue of [EMAIL_QUEUE, CRM_QUEUE]) ran += await app.deps.worker.drain(queue);
      if (ran === 0) return;
    }
    throw new Error('the queues did not settle');
  }

  async function send(body: Record<string, unknown>): Promise<string> {
    const email = uniqueEmail('sender');
    const res = await fetch(`${app.url}/api/support/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ email, recaptchaToken: 'ok-token', ...body }),
    });
    expect(res.status).toBe(200);
    const row = await app.deps.db
      .selectFrom('support_messages')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const path = (id: string) => `/admin/api/support/messages/${id}/classification`;
  const list = async (query = '') => {
    const res = await fetch(`${app.url}/admin/api/support/messages${query}`, {
      headers: { 'x-admin-api-key': ADMIN_KEY },
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { messages: never[] },
    };
  };

  it('spam made a lead: one contact e-mail and one deal, with concurrent and repeated requests', async () => {
    const id = await send({ name: 'SEO King', message: SPAM_TEXT, language: 'es' });
    expect((await getSupportMessage(app.deps.db, id))?.status).toBe('spam');
    await drainAll();
    const mailsBefore = world.smtp.messages.length;

    const answers = await correctConcurrently(app, path(id), { classification: 'lead' }, 5);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.changed)).toHaveLength(1);
    expect(answers.find((a) => a.body.changed)?.body.correction).toMatchObject({
      from: 'spam',
      to: 'lead',
      started: ['contact e-mail', 'CRM sync'],
    });
    await correct(app, path(id), { classification: 'lead' });
    await drainAll();
    await correctConcurrently(app, path(id), { classification: 'lead' }, 3);
    await drainAll();

    expect(world.smtp.messages.length - mailsBefore).toBe(1);
    const [contact] = contactMailsOf(id);
    expect(contact?.envelopeTo).toContain(CRM_BCC);
    expect(dealsOf(id)).toHaveLength(1);
    expect(await getSupportMessage(app.deps.db, id)).toMatchObject({
      status: 'new',
      classification: 'lead',
      pipedrive: { success: true, leadId: dealsOf(id)[0]?.id },
    });
  });

  it('a lead made vendor before anything ran: the contact e-mail and the CRM sync are cancelled, the decline goes once in its language', async () => {
    world.pipedrive.fail = () => true;
    let id: string;
    try {
      id = await send({
        name: 'Lucía',
        message: 'Necesitamos una tienda en línea para nuestra panadería.',
        language: 'es',
      });
    } finally {
      world.pipedrive.fail = () => false;
    }
    const sender = (await getSupportMessage(app.deps.db, id))!;
    expect(sender.status).toBe('new');
    const answers = await correctConcurrently(app, path(id), { classification: 'vendor' }, 4);
    expect(answers.filter((a) => a.body.changed)).toHaveLength(1);
    expect(answers.find((a) => a.body.changed)?.body.correction).toMatchObject({
      stopped: ['contact e-mail', 'CRM sync'],
      started: ['vendor decline e-mail'],
    });
    await drainAll();
    expect(contactMailsOf(id)).toHaveLength(0);
    expect(dealsOf(id)).toHaveLength(0);
    expect(mailTo(world, sender.email).map((m) => m.subject)).toEqual(['Gracias por tu mensaje']);
  });

  it('lists the messages with their classification, score, reasons and corrections; filters by status', async () => {
    const vendorId = await send({ ...VENDOR_SENDER, name: 'Victor', message: VENDOR_TEXT });
    await correct(app, path(vendorId), { classification: 'spam' });
    const { status, body } = await list('?status=spam&limit=100');
    expect(status).toBe(200);
    const shown = (body.messages as Record<string, unknown>[]).find((m) => m.id === vendorId);
    expect(shown).toMatchObject({
      status: 'spam',
      classification: 'spam',
      classifiedBy: 'builtin',
      classificationScore: expect.any(Number),
      classificationReasons: expect.arrayContaining([expect.any(String)]),
      corrections: [{ from: 'vendor', to: 'spam', fromStatus: 'vendor', toStatus: 'spam' }],
    });
    expect((body.messages as { status: string }[]).every((m) => m.status === 'spam')).toBe(true);
    expect((await list('?status=maybe')).status).toBe(400);
  });

  it('401 without the admin key, 404 for an unknown message, 400 for anything but lead, spam or vendor', async () => {
    const id = await send({ name: 'Ana', message: 'We would like a quote for a new website.' });
    expect((await correct(app, path(id), { classification: 'spam' }, { key: null })).status).toBe(401);
    expect((await list()).status).toBe(200);
    const anonymous = await fetch(`${app.url}/admin/api/support/messages`);
    expect(anonymous.status).toBe(401);
    expect((await correct(app, path('sup_nobody'), { classification: 'spam' })).status).toBe(404);
    for (const body of [{ classification: 'junk' }, {}, 'null']) {
      expect((await correct(app, path(id), body)).status).toBe(400);
    }
    expect((await getSupportMessage(app.deps.db, id))?.status).toBe('new');
  });
});
