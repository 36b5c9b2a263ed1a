import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { type SmtpStandIn, startSmtpStandIn } from '../../../test/support/smtp-stand-in.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';
import { CONTACT_LIMITS as L } from './limits.ts';

const engines = await testEngines();

const SITE = 'https://agency.example';
const WWW = 'https://www.agency.example';
const SUPPORT_EMAIL = 'support@agency.example';
const LEAD_MESSAGE = 'We run a small hotel and would like a new website with online booking.';
// The messages support's own tests use for the built-in classifier.
const SPAM_MESSAGE =
  'We sell 5000 dofollow backlinks DA 50+ made with GSA and Xrumer, guaranteed first page of Google in 7 days!!! Telegram @seoking http://a.example http://b.example http://c.example';
const VENDOR_MESSAGE =
  'Hello, we are a software development agency from abroad. We offer dedicated developers and white-label outsourcing.';

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
});
afterAll(() => smtp.close());

describe.each(engines)('the contact form on %s', (engine) => {
  let ctx: TestContext & { url: string };
  let ipCounter = 0;
  const nextIp = () => `198.51.100.${++ipCounter}`;
  let emailCounter = 0;
  const fields = (overrides: Record<string, string> = {}) => ({
    name: 'Ana Díaz',
    email: `ana.${engine}.${++emailCounter}@example.com`,
    subject: 'A booking site',
    message: LEAD_MESSAGE,
    ...overrides,
  });

  beforeAll(async () => {
    ctx = await startTestServer({
      engine,
      env: {
        TRUST_PROXY: 'xff',
        SITE_ORIGIN: SITE,
        WWW_SITE_ORIGIN: WWW,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Agency <hello@agency.example>',
        SUPPORT_EMAIL,
      },
    });
  });
  afterAll(() => ctx.close());

  type Encoding = 'json' | 'urlencoded' | 'multipart';
  const post = (
    encoding: Encoding,
    values: Record<string, string>,
    headers: Record<string, string> = {},
    ip = nextIp(),
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(values)) form.append(name, value);
    const body =
      encoding === 'json'
        ? JSON.stringify(values)
        : encoding === 'urlencoded'
          ? new URLSearchParams(values)
          : form;
    return fetch(`${ctx.url}/api/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...(encoding === 'json' ? { 'content-type': 'application/json' } : {}),
        'x-forwarded-for': ip,
        ...headers,
      },
      body,
    });
  };
  const rowOf = (email: string) =>
    ctx.deps.db.selectFrom('contact_submissions').selectAll().where('email', '=', email).executeTakeFirst();
  const mailJobs = async (id: string) =>
    (
      await ctx.deps.db
        .selectFrom('jobs')
        .select('idempotency_key')
        .where('queue', '=', EMAIL_QUEUE)
        .where('idempotency_key', 'like', `${id}:%`)
        .execute()
    ).map((j) => j.idempotency_key);
  const deliver = () => ctx.deps.worker.drain(EMAIL_QUEUE);
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.envelopeTo.includes(address));

  it.each(['json', 'urlencoded', 'multipart'] as const)(
    'takes %s with the same fields: stored, classified, e-mailed to SUPPORT_EMAIL with Reply-To the visitor',
    async (encoding) => {
      const values = fields({ name: `  Ana ${encoding}  `, subject: `Booking site (${engine} ${encoding})` });
      const res = await post(encoding, values, { accept: 'application/json' });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { success: boolean; id: string; createdAt: string };
      expect(body).toEqual({
        success: true,
        id: expect.stringMatching(/^contact_/),
        createdAt: expect.any(String),
      });
      const row = await rowOf(values.email);
      expect(row).toMatchObject({
        id: body.id,
        name: `Ana ${encoding}`,
        status: 'new',
        classification: 'lead',
        classified_by: 'builtin',
      });
      // The e-mail was queued with the row (one transaction), before anything was sent.
      expect(await mailJobs(body.id)).toEqual([`${body.id}:contact`]);
      await deliver();
      const mail = mailsTo(SUPPORT_EMAIL).find((m) => m.subject?.includes(`(${engine} ${encoding})`));
      expect(mail?.replyTo?.text).toBe(values.email);
      expect(mail?.text).toContain(LEAD_MESSAGE);
    },
  );

  it('stores nothing and sends nothing when the e-mail cannot be queued (one transaction)', async () => {
    const refuse =
      engine === 'sqlite'
        ? [
            sql`create trigger refuse_contact_mail before insert on jobs when new.idempotency_key like 'contact%' begin select raise(abort, 'refused'); end`,
          ]
        : [
            sql`create function refuse_contact_mail() returns trigger language plpgsql as $$ begin if new.idempotency_key like 'contact%' then raise exception 'refused'; end if; return new; end $$`,
            sql`create trigger refuse_contact_mail before insert on jobs for each row execute function refuse_contact_mail()`,
          ];
    for (const statement of refuse) await statement.execute(ctx.deps.db);
    try {
      const values = fields();
      const res = await post('json', values);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(await rowOf(values.email)).toBeUndefined();
      const outbox = await ctx.deps.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('reply_to', '=', values.email)
        .execute();
      expect(outbox).toEqual([]);
    } finally {
      await sql`drop trigger refuse_contact_mail${sql.raw(engine === 'sqlite' ? '' : ' on jobs')}`.execute(
        ctx.deps.db,
      );
    }
    expect((await post('json', fields())).status).toBe(201);
  });

  it('answers a browser form post with a thank-you page in its language, every echoed character escaped', async () => {
    const values = fields({ name: '<b>Ana</b> & "co"', lang: 'es' });
    const res = await post('urlencoded', values, {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('¡Gracias, &lt;b&gt;Ana&lt;/b&gt; &amp; &quot;co&quot;!');
    expect(page).not.toContain('<b>');
    expect(page).toContain(`href="${SITE}/"`);
    expect((await rowOf(values.email))?.status).toBe('new');

    // Without a language field, Accept-Language decides; by default, English.
    const spanish = await post('multipart', fields(), { 'accept-language': 'fr-FR, es;q=0.8, en;q=0.5' });
    expect(await spanish.text()).toContain('Recibimos tu mensaje');
    const english = await post('multipart', fields());
    expect(await english.text()).toContain('We received your message');
  });

  it('sends a browser form post to `redirect` with 303 only when it is on one of the site origins', async () => {
    for (const target of [`${SITE}/contact/thanks?from=form#top`, `${WWW}/gracias`]) {
      const res = await post('urlencoded', fields({ redirect: target }));
      expect(res.status, target).toBe(303);
      expect(res.headers.get('location'), target).toBe(target);
    }
    // A JSON client gets JSON whatever `redirect` says.
    expect((await post('json', fields({ redirect: `${SITE}/thanks` }))).status).toBe(201);

    for (const target of [
      'https://evil.example/',
      'https://agency.example.evil.example/',
      'http://agency.example/thanks',
      'https://agency.example:8443/thanks',
      'https://user@agency.example/thanks',
      '//evil.example/',
      '/thanks',
      'javascript:alert(1)',
    ]) {
      const values = fields({ redirect: target });
      const res = await post('urlencoded', values);
      expect(res.status, target).toBe(400);
      expect(res.headers.get('location'), target).toBeNull();
      expect(await res.text(), target).toContain('redirect: must be an absolute URL on the site');
      expect(await rowOf(values.email), target).toBeUndefined();
    }
  });

  it('stores a filled-in honeypot as spam, answers it as a success and e-mails nobody', async () => {
    const values = fields({ _gotcha: 'http://spam.example' });
    const res = await post('json', values);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await rowOf(values.email)).toMatchObject({ status: 'spam', classified_by: 'honeypot' });
    expect(await mailJobs(id)).toEqual([]);
    const page = await post('urlencoded', fields({ _gotcha: 'x', redirect: `${SITE}/thanks` }));
    expect(page.status).toBe(303);
    // An empty honeypot is a person's.
    const person = fields({ _gotcha: '' });
    expect((await post('urlencoded', person)).status).toBe(200);
    expect((await rowOf(person.email))?.status).toBe('new');
  });

  it('drops spam and declines a vendor pitch as the contact-us route does', async () => {
    const spam = fields({ name: 'Seo King', subject: 'Backlinks', message: SPAM_MESSAGE });
    const spamRes = await post('json', spam);
    expect(spamRes.status).toBe(201);
    const spamId = ((await spamRes.json()) as { id: string }).id;
    expect(await rowOf(spam.email)).toMatchObject({ status: 'spam', classification: 'spam' });
    expect(await mailJobs(spamId)).toEqual([]);

    const vendor = fields({ name: 'Raj Patel', subject: 'Partnership', message: VENDOR_MESSAGE, lang: 'en' });
    const vendorRes = await post('urlencoded', vendor, { accept: 'application/json' });
    const vendorId = ((await vendorRes.json()) as { id: string }).id;
    expect(await rowOf(vendor.email)).toMatchObject({ status: 'vendor', classification: 'vendor' });
    expect(await mailJobs(vendorId)).toEqual([`${vendorId}:vendor-decline`]);
    await deliver();
    expect(mailsTo(vendor.email)[0]?.subject).toBe('Thank you for reaching out');
  });

  it('refuses a file part with 415 and ignores an empty file input', async () => {
    const withFile = new FormData();
    for (const [k, v] of Object.entries(fields())) withFile.append(k, v);
    withFile.append('attachment', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'brief.pdf');
    const res = await fetch(`${ctx.url}/api/contact`, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-forwarded-for': nextIp() },
      body: withFile,
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });

    const values = fields();
    const emptyInput = new FormData();
    for (const [k, v] of Object.entries(values)) emptyInput.append(k, v);
    emptyInput.append('attachment', new Blob([]), '');
    const ok = await fetch(`${ctx.url}/api/contact`, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-forwarded-for': nextIp() },
      body: emptyInput,
    });
    expect(ok.status).toBe(201);
  });

  it('applies the same limits to every encoding, and answers a browser its errors as a page', async () => {
    for (const encoding of ['json', 'urlencoded', 'multipart'] as const) {
      const tooLong = fields({ message: 'x'.repeat(L.messageLength + 1) });
      const res = await post(encoding, tooLong, { accept: 'application/json' });
      expect(res.status, encoding).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('message');
      const exact = fields({ message: 'm'.repeat(L.messageLength) });
      expect((await post(encoding, exact, { accept: 'application/json' })).status, encoding).toBe(201);
    }
    const page = await post('urlencoded', fields({ email: '<not-an-email>', lang: 'es' }));
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain('Tu mensaje no se envió');
    expect(text).toContain('email: must be an e-mail address');
  });

  it('counts valid submissions only, and advertises the limit on every success', async () => {
    const ip = nextIp();
    for (let i = 0; i < 3; i++) {
      expect((await post('json', fields({ email: 'not-an-email' }), {}, ip)).status).toBe(400);
    }
    const first = await post('json', fields(), {}, ip);
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-policy')).toBe(`"contact";q=${L.perIp.limit};w=3600`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"contact";r=${L.perIp.limit - 1};t=\\d+$`));
    for (let i = 1; i < L.perIp.limit; i++)
      expect((await post('urlencoded', fields(), {}, ip)).status).toBe(200);
    const limited = await post('json', fields(), {}, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/^"contact";r=0;t=\d+$/);
    const page = await post('urlencoded', fields(), {}, ip);
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await page.text()).toContain('Please try again later.');
  });
});
