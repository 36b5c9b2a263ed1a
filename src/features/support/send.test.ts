import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  CRM_BCC,
  deliverMail,
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
import { getSupportMessage } from './store.ts';

const engines = await testEngines();

const LEAD_MESSAGE = 'We run a small hotel and would like a new website with online booking.';
// A black-hat SEO blast as spammers send it: a made-up name, no company, no real subject (the
// built-in classifier weighs the sender too).
const SPAM_MESSAGE =
  'We sell 5000 dofollow backlinks DA 50+ made with GSA and Xrumer, guaranteed first page of Google in 7 days!!! Telegram @seoking http://a.example http://b.example http://c.example';
const VENDOR_MESSAGE =
  'Hello, we are a software development agency from abroad. We offer dedicated developers and white-label outsourcing.';

let world: SupportWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

describe.each(engines)('POST /api/support/send on %s', (engine) => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serveApp(engine, world);
  });
  afterAll(() => app.close());

  const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/support/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
      body: JSON.stringify(body),
    });
  const contact = (overrides: Record<string, unknown> = {}) => ({
    name: 'Ana García',
    email: uniqueEmail('ana'),
    company: 'Hotel Sol',
    subject: 'A new booking site',
    message: LEAD_MESSAGE,
    recaptchaToken: 'ok-token',
    ...overrides,
  });
  const latestId = async (email: string) => {
    const row = await app.deps.db
      .selectFrom('support_messages')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    return row?.id ?? null;
  };

  it('a genuine request: e-mail to SUPPORT_EMAIL with the CRM address only on the envelope, and a Pipedrive deal', async () => {
    const body = contact({ name: 'Ana <b>García</b>' });
    const res = await send(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      message: 'Thank you! We received your message and will reply soon.',
    });
    const id = (await latestId(body.email as string))!;
    const stored = await getSupportMessage(app.deps.db, id);
    expect(stored).toMatchObject({ status: 'new', classification: 'lead', company: 'Hotel Sol' });
    expect(stored?.pipedrive).toMatchObject({ success: true, leadId: expect.any(Number) });
    const deal = world.pipedrive.deals.find((d) => d.title.includes(id));
    expect(deal?.title).toContain('Contact form: Ana <b>García</b> (Hotel Sol)');
    expect(world.pipedrive.notes.find((n) => n.deal_id === deal?.id)?.content).toContain('&lt;b&gt;');
    // The CRM safety-net job was committed with the message, so a crash after the commit cannot lose
    // the deal; after this successful in-request attempt it will find every id known.
    const crmJobs = await app.deps.jobs.list(CRM_QUEUE);
    expect(crmJobs.filter((j) => j.idempotencyKey === `${id}:crm`)).toHaveLength(1);

    await deliverMail(app);
    const [mail] = mailTo(world, SUPPORT_EMAIL).filter((m) => m.text?.includes(id));
    expect(mail).toBeDefined();
    expect(mail!.envelopeTo.sort()).toEqual([CRM_BCC, SUPPORT_EMAIL].sort());
    expect(mail!.headers.has('bcc')).toBe(false);
    expect(JSON.stringify(mail!.headerLines)).not.toContain(CRM_BCC);
    expect(mail!.replyTo?.text).toBe(body.email);
    expect(mail!.html).toContain('Ana &lt;b&gt;García&lt;/b&gt;');
    expect(mail!.text).toContain(LEAD_MESSAGE);
  });

  it('CAPTCHA missing or rejected → 400 CAPTCHA_FAILED, nothing stored', async () => {
    for (const token of [undefined, 'bad-token', 'low-score']) {
      const body = contact({ recaptchaToken: token });
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('CAPTCHA_FAILED');
      expect(await latestId(body.email as string)).toBeNull();
    }
  });

  it('spam is stored and silently dropped: the same answer, no e-mail, no deal', async () => {
    const dealsBefore = world.pipedrive.deals.length;
    const body = contact({ name: 'SEO King', company: undefined, subject: undefined, message: SPAM_MESSAGE });
    const res = await send(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      message: 'Thank you! We received your message and will reply soon.',
    });
    const stored = await getSupportMessage(app.deps.db, (await latestId(body.email as string))!);
    expect(stored).toMatchObject({ status: 'spam', classification: 'spam' });
    expect(world.pipedrive.deals.length).toBe(dealsBefore);
    await deliverMail(app);
    expect(mailTo(world, body.email as string)).toHaveLength(0);
    expect(world.smtp.messages.filter((m) => m.text?.includes(stored!.id))).toHaveLength(0);
  });

  it('a vendor pitch gets the polite decline (in Spanish when asked), no deal, no support e-mail', async () => {
    const dealsBefore = world.pipedrive.deals.length;
    const en = contact({ message: VENDOR_MESSAGE });
    const es = contact({
      name: 'Luis',
      message:
        'Hola, somos una agencia de desarrollo. Le ofrecemos desarrolladores dedicados y subcontratación de marca blanca.',
      language: 'es',
    });
    for (const body of [en, es]) expect((await send(body)).status).toBe(200);
    expect(world.pipedrive.deals.length).toBe(dealsBefore);
    await deliverMail(app);
    expect(mailTo(world, en.email as string).map((m) => m.subject)).toEqual(['Thank you for reaching out']);
    const [spanish] = mailTo(world, es.email as string);
    expect(spanish?.subject).toBe('Gracias por tu mensaje');
    expect(spanish?.text).toContain('Hola Luis');
    const vendorId = (await latestId(en.email as string))!;
    expect((await getSupportMessage(app.deps.db, vendorId))?.status).toBe('vendor');
    expect(world.smtp.messages.filter((m) => m.text?.includes(vendorId))).toHaveLength(0);
  });

  it('Pipedrive down: the request is kept and the shared CRM queue creates the deal once it is back', async () => {
    world.pipedrive.fail = () => true;
    try {
      const body = contact();
      expect((await send(body)).status).toBe(200);
      const id = (await latestId(body.email as string))!;
      expect((await getSupportMessage(app.deps.db, id))?.pipedrive?.success).toBe(false);
      world.pipedrive.fail = () => false;
      for (let round = 0; round < 100; round++) {
        await app.deps.worker.drain(CRM_QUEUE);
        if ((await getSupportMessage(app.deps.db, id))?.pipedrive?.success) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await getSupportMessage(app.deps.db, id))?.pipedrive).toMatchObject({
        success: true,
        message: 'Synced to Pipedrive on retry',
      });
      expect(world.pipedrive.deals.filter((d) => d.title.includes(id))).toHaveLength(1);
    } finally {
      world.pipedrive.fail = () => false;
    }
  });

  it('bad input → 400 VALIDATION_ERROR; not JSON → 415', async () => {
    const bad = await send(contact({ email: 'not-an-email' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    const tooLong = await send(contact({ message: 'x'.repeat(5001) }));
    expect(tooLong.status).toBe(400);
    const form = await fetch(`${app.url}/api/support/send`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-forwarded-for': freshIp() },
      body: 'hello',
    });
    expect(form.status).toBe(415);
  });
});
