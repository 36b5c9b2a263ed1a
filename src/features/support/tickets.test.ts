import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  deliverMail,
  freshIp,
  mailTo,
  SAMPLE_FILES,
  type ServedApp,
  SUPPORT_EMAIL,
  type SupportWorld,
  serveApp,
  startWorld,
  uniqueEmail,
} from '../../../test/support/features/support.ts';
import { startSmtpStandIn } from '../../../test/support/smtp-stand-in.ts';
import { CAPTCHA_WIDGET_FIELDS } from '../../integrations/captcha/captcha.ts';
import { MAX_TICKET_BODY_BYTES, TICKET_ID_PATTERN, UPLOAD_LIMITS } from './limits.ts';
import { getTicket } from './store.ts';
import { newTicketId } from './tickets.ts';

const engines = await testEngines();

let world: SupportWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

interface FileSpec {
  name: string;
  bytes: Buffer;
  type?: string;
}

function ticketForm(fields: Record<string, string | undefined> = {}, files: FileSpec[] = []): FormData {
  const form = new FormData();
  const values: Record<string, string | undefined> = {
    fullName: 'Ana García',
    email: uniqueEmail('ticket'),
    issueType: 'bug',
    companyName: 'Hotel Sol',
    urgency: 'high',
    productUrl: 'https://hotelsol.example/booking',
    description: 'The booking form fails on step 2 with <script>alert(1)</script>.',
    recaptchaToken: 'ok-token',
    ...fields,
  };
  for (const [name, value] of Object.entries(values)) if (value !== undefined) form.append(name, value);
  for (const file of files) {
    form.append('attachments', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? '' }), file.name);
  }
  return form;
}

/** A PNG of exactly `size` bytes (a real header, then zeros). */
function pngOfSize(size: number): Buffer {
  return Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(size - SAMPLE_FILES.png.length)]);
}

/** The form as the multipart bytes fetch would send, and their Content-Type. */
async function encodeForm(form: FormData) {
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type')!;
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType, boundary };
}

/** The form as multipart bytes with hand-written parts before the closing boundary. */
async function withRawParts(form: FormData, parts: { headers: string; bytes: Buffer }[]) {
  const { body: bytes, contentType, boundary } = await encodeForm(form);
  const closing = Buffer.from(`--${boundary}--\r\n`);
  expect(bytes.subarray(-closing.length).equals(closing)).toBe(true);
  const written = parts.flatMap((part) => [
    Buffer.from(`--${boundary}\r\n${part.headers}\r\n\r\n`),
    part.bytes,
    Buffer.from('\r\n'),
  ]);
  const body = Buffer.concat([bytes.subarray(0, -closing.length), ...written, closing]);
  return { body, contentType };
}

/**
 * The form with, at the end, the part a browser sends for a file input left empty: `filename=""`,
 * `application/octet-stream`, no bytes (fetch's FormData would drop the `filename=""`).
 */
function withEmptyBrowserInput(form: FormData, count = 1) {
  const empty = {
    headers:
      'Content-Disposition: form-data; name="attachments"; filename=""\r\n' +
      'Content-Type: application/octet-stream',
    bytes: Buffer.alloc(0),
  };
  return withRawParts(
    form,
    Array.from({ length: count }, () => empty),
  );
}

/** A stream of unknown length: fetch sends it with `Transfer-Encoding: chunked`, 1 MiB per chunk. */
function chunkedStream(body: Buffer): ReadableStream<Uint8Array> {
  const chunkBytes = 1024 * 1024;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + chunkBytes)));
      offset += chunkBytes;
    },
  });
}

interface ErrorBody {
  success: false;
  error: { code: string; message: string };
}

describe.each(engines)('POST /api/support/tickets on %s', (engine) => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serveApp(engine, world, { UPLOAD_TIMEOUT_MS: '1500' });
  });
  afterAll(() => app.close());

  const post = (form: FormData) =>
    fetch(`${app.url}/api/support/tickets`, {
      method: 'POST',
      headers: { 'x-forwarded-for': freshIp() },
      body: form,
    });

  /** A multipart body built by hand (for parts fetch's FormData cannot express). */
  const postRaw = (body: Buffer, contentType: string) =>
    fetch(`${app.url}/api/support/tickets`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-forwarded-for': freshIp() },
      body: new Uint8Array(body),
    });

  /** The same, sent with `Transfer-Encoding: chunked` (no Content-Length to refuse up front). */
  const postChunked = (body: Buffer, contentType: string) =>
    fetch(`${app.url}/api/support/tickets`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-forwarded-for': freshIp() },
      body: chunkedStream(body),
      duplex: 'half',
    } as RequestInit);

  /** The request must be refused with this status and code. */
  async function expectRefused(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(((await res.json()) as ErrorBody).error.code).toBe(code);
  }
  const countRows = async (table: 'support_tickets' | 'blobs' | 'mail_outbox') => {
    const row = await app.deps.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** Tickets, stored file bytes and queued e-mails: a refused request must add none of them. */
  async function snapshot() {
    return {
      tickets: await countRows('support_tickets'),
      blobs: await countRows('blobs'),
      emails: await countRows('mail_outbox'),
    };
  }
  async function expectNothingStored(before: Awaited<ReturnType<typeof snapshot>>) {
    expect(await snapshot()).toEqual(before);
  }

  it('stores the ticket and its files, mails the customer and the support team (files attached)', async () => {
    const email = uniqueEmail('happy');
    const res = await post(
      ticketForm({ email }, [
        { name: 'screenshot.png', bytes: SAMPLE_FILES.png, type: 'image/png' },
        { name: 'invoice.pdf', bytes: SAMPLE_FILES.pdf, type: 'application/pdf' },
        { name: 'server.log', bytes: SAMPLE_FILES.text, type: 'text/plain' },
      ]),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; ticketId: string };
    expect(body.success).toBe(true);
    expect(body.ticketId).toMatch(TICKET_ID_PATTERN);
    expect(body.ticketId.slice(7, 15)).toBe(new Date().toISOString().slice(0, 10).replaceAll('-', ''));

    const ticket = await getTicket(app.deps.db, body.ticketId);
    expect(ticket).toMatchObject({ email, urgency: 'high', issueType: 'bug', companyName: 'Hotel Sol' });
    expect(ticket?.attachments.map((a) => [a.filename, a.contentType, a.size])).toEqual([
      ['screenshot.png', 'image/png', SAMPLE_FILES.png.length],
      ['invoice.pdf', 'application/pdf', SAMPLE_FILES.pdf.length],
      ['server.log', 'text/plain', SAMPLE_FILES.text.length],
    ]);

    await deliverMail(app);
    const [confirmation] = mailTo(world, email);
    expect(confirmation?.subject).toBe(`[${body.ticketId}] We received your support request`);
    expect(confirmation?.attachments).toHaveLength(0);
    expect(confirmation?.html).toContain('&lt;script&gt;');
    const [team] = mailTo(world, SUPPORT_EMAIL).filter((m) => m.subject?.includes(body.ticketId));
    expect(team?.replyTo?.text).toBe(email);
    expect(team?.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['screenshot.png', 'image/png'],
      ['invoice.pdf', 'application/pdf'],
      ['server.log', 'text/plain'],
    ]);
    expect(team?.attachments[0]?.content.equals(SAMPLE_FILES.png)).toBe(true);
    expect(team?.attachments[1]?.content.equals(SAMPLE_FILES.pdf)).toBe(true);
  });

  it('a mail server that refuses the team e-mail for its size gets it without the files, listed', async () => {
    const small = await startSmtpStandIn(0, { maxBytes: 64 * 1024 });
    const strict = await serveApp(engine, world, { SMTP_URL: small.url });
    try {
      const email = uniqueEmail('oversize');
      const res = await fetch(`${strict.url}/api/support/tickets`, {
        method: 'POST',
        headers: { 'x-forwarded-for': freshIp() },
        body: ticketForm({ email }, [{ name: 'big.png', bytes: pngOfSize(200 * 1024), type: 'image/png' }]),
      });
      expect(res.status).toBe(200);
      const { ticketId } = (await res.json()) as { ticketId: string };
      await deliverMail(strict);
      const team = small.messages.find(
        (m) => m.envelopeTo.includes(SUPPORT_EMAIL) && m.subject?.includes(ticketId),
      );
      expect(team?.attachments).toHaveLength(0);
      expect(team?.text).toContain('refused this message with its 1 attachment(s) for its size');
      expect(team?.text).toContain('big.png (image/png, 0.2 MB, kept in the service’s database as blob');
      expect(small.messages.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
      const row = await strict.deps.db
        .selectFrom('mail_outbox')
        .select(['status', 'last_error'])
        .where('to_addresses', 'like', `%${SUPPORT_EMAIL}%`)
        .where('subject', 'like', `%${ticketId}%`)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(row.last_error).toMatch(
        /^Sent without its attachments: the server refused the whole message \(.*5\.3\.4/,
      );
    } finally {
      await strict.close();
      await small.close();
    }
  });

  it('a mail server that refuses even the e-mail without files: the row is failed with its reply, not retried', async () => {
    const tiny = await startSmtpStandIn(0, { maxBytes: 1024 });
    const strict = await serveApp(engine, world, { SMTP_URL: tiny.url });
    try {
      const res = await fetch(`${strict.url}/api/support/tickets`, {
        method: 'POST',
        headers: { 'x-forwarded-for': freshIp() },
        body: ticketForm({}, [{ name: 'big.png', bytes: pngOfSize(8 * 1024), type: 'image/png' }]),
      });
      const { ticketId } = (await res.json()) as { ticketId: string };
      await deliverMail(strict);
      const row = await strict.deps.db
        .selectFrom('mail_outbox')
        .select(['status', 'last_error', 'attempts'])
        .where('idempotency_key', '=', `${ticketId}:notification`)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row.last_error).toMatch(/5\.3\.4/);
      expect(tiny.messages).toHaveLength(0);
    } finally {
      await strict.close();
      await tiny.close();
    }
  });

  it('a ticket without files works too; ticket ids are unique', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await post(ticketForm({ urgency: 'low' }));
      expect(res.status).toBe(200);
      ids.add(((await res.json()) as { ticketId: string }).ticketId);
    }
    expect(ids.size).toBe(3);
  });

  it(`a sixth file → 400 VALIDATION_ERROR, nothing stored`, async () => {
    const before = await snapshot();
    const files = Array.from({ length: UPLOAD_LIMITS.maxFiles + 1 }, (_, i) => ({
      name: `shot-${i}.png`,
      bytes: SAMPLE_FILES.png,
    }));
    const res = await post(ticketForm({}, files));
    await expectRefused(res, 400, 'VALIDATION_ERROR');
    await expectNothingStored(before);
  });

  it('five files are fine', async () => {
    const files = Array.from({ length: UPLOAD_LIMITS.maxFiles }, (_, i) => ({
      name: `shot-${i}.png`,
      bytes: SAMPLE_FILES.png,
    }));
    expect((await post(ticketForm({}, files))).status).toBe(200);
  });

  it("five files and a browser's empty file input: the empty part is ignored, not counted", async () => {
    const files = Array.from({ length: UPLOAD_LIMITS.maxFiles }, (_, i) => ({
      name: `shot-${i}.png`,
      bytes: SAMPLE_FILES.png,
    }));
    const { body, contentType } = await withEmptyBrowserInput(ticketForm({}, files));
    const res = await postRaw(body, contentType);
    const answer = (await res.json()) as { ticketId: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const ticket = await getTicket(app.deps.db, answer.ticketId);
    expect(ticket?.attachments.map((a) => a.filename)).toEqual(files.map((f) => f.name));
  });

  it("a sixth real file → 400 even with a browser's empty file input; too many file parts → 400", async () => {
    const before = await snapshot();
    const six = Array.from({ length: UPLOAD_LIMITS.maxFiles + 1 }, (_, i) => ({
      name: `shot-${i}.png`,
      bytes: SAMPLE_FILES.png,
    }));
    const sixth = await withEmptyBrowserInput(ticketForm({}, six));
    const res = await postRaw(sixth.body, sixth.contentType);
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.message).toBe(
      `At most ${UPLOAD_LIMITS.maxFiles} attachments may be sent.`,
    );
    // Empty parts are bounded too: one more file part than maxFileParts is refused.
    const empties = await withEmptyBrowserInput(ticketForm(), UPLOAD_LIMITS.maxFileParts + 1);
    await expectRefused(await postRaw(empties.body, empties.contentType), 400, 'VALIDATION_ERROR');
    await expectNothingStored(before);
  });

  it('a file of exactly the per-file size is accepted', async () => {
    const exact = pngOfSize(UPLOAD_LIMITS.maxFileBytes);
    const res = await post(ticketForm({}, [{ name: 'exact.png', bytes: exact, type: 'image/png' }]));
    const answer = (await res.json()) as { ticketId: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const ticket = await getTicket(app.deps.db, answer.ticketId);
    expect(ticket?.attachments.map((a) => a.size)).toEqual([UPLOAD_LIMITS.maxFileBytes]);
  });

  it('a file of the per-file size + 1 byte → 413 PAYLOAD_TOO_LARGE, nothing stored', async () => {
    const before = await snapshot();
    const over = pngOfSize(UPLOAD_LIMITS.maxFileBytes + 1);
    const res = await post(ticketForm({}, [{ name: 'over.png', bytes: over, type: 'image/png' }]));
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.message).toBe(
      `over.png: a file may be at most ${UPLOAD_LIMITS.maxFileBytes} bytes.`,
    );
    await expectNothingStored(before);
  });

  it('files of exactly the total size are accepted; one byte more → 413', async () => {
    const before = await snapshot();
    const rest = UPLOAD_LIMITS.maxTotalFileBytes - 2 * UPLOAD_LIMITS.maxFileBytes;
    const files = (last: number) => [
      { name: 'a.png', bytes: pngOfSize(UPLOAD_LIMITS.maxFileBytes) },
      { name: 'b.png', bytes: pngOfSize(UPLOAD_LIMITS.maxFileBytes) },
      { name: 'c.png', bytes: pngOfSize(last) },
    ];
    const over = await post(ticketForm({}, files(rest + 1)));
    expect(over.status).toBe(413);
    expect(((await over.json()) as ErrorBody).error.message).toBe(
      `The attachments together exceed ${UPLOAD_LIMITS.maxTotalFileBytes} bytes.`,
    );
    await expectNothingStored(before);

    const exact = await post(ticketForm({}, files(rest)));
    const answer = (await exact.json()) as { ticketId: string };
    expect(exact.status, JSON.stringify(answer)).toBe(200);
    const ticket = await getTicket(app.deps.db, answer.ticketId);
    const sizes = ticket?.attachments.map((a) => a.size) ?? [];
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(UPLOAD_LIMITS.maxTotalFileBytes);
  });

  it('a file over the per-file size → 413 PAYLOAD_TOO_LARGE, nothing stored', async () => {
    const before = await snapshot();
    const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(UPLOAD_LIMITS.maxFileBytes)]);
    const res = await post(ticketForm({}, [{ name: 'huge.png', bytes: big, type: 'image/png' }]));
    await expectRefused(res, 413, 'PAYLOAD_TOO_LARGE');
    await expectNothingStored(before);
  });

  it('files over the total size → 413, nothing stored', async () => {
    const before = await snapshot();
    const nine = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(9 * 1024 * 1024)]);
    const res = await post(
      ticketForm({}, [
        { name: 'a.png', bytes: nine },
        { name: 'b.png', bytes: nine },
        { name: 'c.png', bytes: nine },
      ]),
    );
    await expectRefused(res, 413, 'PAYLOAD_TOO_LARGE');
    await expectNothingStored(before);
  });

  it('a declared Content-Length over the limit → 413 before the body is read', async () => {
    const res = await rawRequest(app.url, {
      headers: {
        'Content-Type': 'multipart/form-data; boundary=XYZ',
        'Content-Length': String(200 * 1024 * 1024),
      },
      body: '--XYZ\r\n',
    });
    expect(res.status).toBe(413);
    expect(res.body).toContain('PAYLOAD_TOO_LARGE');
  });

  it('a chunked body past the total bound → 413 like a declared length, junk before the first boundary or after the last included; nothing stored', async () => {
    const before = await snapshot();
    const { body: form, contentType } = await encodeForm(ticketForm());
    const junk = (size: number) => Buffer.alloc(size, 'x');
    const overBound = MAX_TICKET_BODY_BYTES + 1;
    const preamble = Buffer.concat([junk(overBound - form.length - 2), Buffer.from('\r\n'), form]);
    const epilogue = Buffer.concat([form, junk(overBound - form.length)]);
    for (const body of [preamble, epilogue]) {
      expect(body.length).toBe(overBound);
      const res = await postChunked(body, contentType);
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: `The upload is larger than ${MAX_TICKET_BODY_BYTES} bytes.`,
      });
    }
    await expectNothingStored(before);

    // Exactly the bound, preamble and epilogue together, is read to the end and accepted.
    const half = (MAX_TICKET_BODY_BYTES - form.length - 2) / 2;
    const exact = Buffer.concat([junk(Math.floor(half)), Buffer.from('\r\n'), form, junk(Math.ceil(half))]);
    expect(exact.length).toBe(MAX_TICKET_BODY_BYTES);
    const res = await postChunked(exact, contentType);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a wrong type disguised by its extension and declared type → 415, nothing stored', async () => {
    const before = await snapshot();
    const res = await post(
      ticketForm({}, [{ name: 'photo.png', bytes: SAMPLE_FILES.exe, type: 'image/png' }]),
    );
    await expectRefused(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 7)]);
    await expectRefused(
      await post(ticketForm({}, [{ name: 'report.pdf', bytes: zip, type: 'application/pdf' }])),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const binary = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0xff]);
    await expectRefused(
      await post(ticketForm({}, [{ name: 'notes.txt', bytes: binary, type: 'text/plain' }])),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectNothingStored(before);
  });

  it('a text file with a terminal control sequence, C0 (ESC) or C1 (U+009B, a one-character CSI) → 415, nothing stored', async () => {
    const before = await snapshot();
    for (const text of ['log \u001b[31mred\n', 'log \u009b31mred\n', 'next\u0085line', '\u0080', '\u009f']) {
      const bytes = Buffer.from(text, 'utf8');
      await expectRefused(
        await post(ticketForm({}, [{ name: 'colour.log', bytes, type: 'text/plain' }])),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    await expectNothingStored(before);
    // Tab, CR, LF and form feed remain, and so does everything from U+00A0 on.
    const text = Buffer.from('a\tb\r\nc\fd \u00a0 ñ € 日本\n', 'utf8');
    const res = await post(ticketForm({}, [{ name: 'notes.txt', bytes: text, type: 'text/plain' }]));
    expect(res.status).toBe(200);
  });

  it('a file with an empty file name (filename="") or an undecodable one (filename*) → 400, nothing stored', async () => {
    const before = await snapshot();
    const cases = [
      ['filename=""', /^attachments: each part must be a file with a file name\.$/],
      ["filename*=x-bogus''a.png", /Content-Disposition is missing or malformed/],
    ] as const;
    for (const [disposition, message] of cases) {
      const { body, contentType } = await withRawParts(ticketForm(), [
        {
          headers: `Content-Disposition: form-data; name="attachments"; ${disposition}\r\nContent-Type: image/png`,
          bytes: SAMPLE_FILES.png,
        },
      ]);
      const res = await postRaw(body, contentType);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(message),
      });
    }
    await expectNothingStored(before);

    // Declared application/octet-stream, busboy reads the same part as a file without a name: the
    // rule is the same, whether the name is empty or missing.
    for (const disposition of ['filename=""', '']) {
      const { body, contentType } = await withRawParts(ticketForm(), [
        {
          headers:
            `Content-Disposition: form-data; name="attachments"${disposition ? `; ${disposition}` : ''}\r\n` +
            'Content-Type: application/octet-stream',
          bytes: SAMPLE_FILES.png,
        },
      ]);
      const res = await postRaw(body, contentType);
      expect(res.status, disposition).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toEqual(
        expect.objectContaining({
          code: 'VALIDATION_ERROR',
          message: 'attachments: each part must be a file with a file name.',
        }),
      );
    }
    await expectNothingStored(before);

    // One with no bytes loses nothing: ignored like a browser's empty file input, whatever its type.
    const empty = await withRawParts(ticketForm(), [
      {
        headers:
          'Content-Disposition: form-data; name="attachments"; filename=""\r\nContent-Type: text/plain',
        bytes: Buffer.alloc(0),
      },
    ]);
    const res = await postRaw(empty.body, empty.contentType);
    const answer = (await res.json()) as { ticketId: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect((await getTicket(app.deps.db, answer.ticketId))?.attachments).toEqual([]);
  });

  it('a named file with no bytes → 400 naming it, nothing stored', async () => {
    const before = await snapshot();
    const res = await post(
      ticketForm({}, [{ name: 'notes.txt', bytes: Buffer.alloc(0), type: 'text/plain' }]),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'notes.txt: the file is empty.',
    });
    await expectNothingStored(before);
  });

  it('a real image under a wrong name is stored under a name with the right extension', async () => {
    const res = await post(
      ticketForm({}, [
        { name: 'scan.pdf', bytes: SAMPLE_FILES.png, type: 'application/pdf' },
        {
          name: 'page.html',
          bytes: Buffer.from('<html><script>alert(1)</script></html>'),
          type: 'text/html',
        },
      ]),
    );
    expect(res.status).toBe(200);
    const ticket = await getTicket(app.deps.db, ((await res.json()) as { ticketId: string }).ticketId);
    expect(ticket?.attachments.map((a) => [a.filename, a.contentType, a.declaredType])).toEqual([
      ['scan.pdf.png', 'image/png', 'application/pdf'],
      ['page.html.txt', 'text/plain', 'text/html'],
    ]);
  });

  it('path traversal, bidi overrides and overlong file names are sanitised', async () => {
    const res = await post(
      ticketForm({}, [
        { name: '../../../etc/passwd.png', bytes: SAMPLE_FILES.png },
        { name: '..\\..\\windows\\system32\\evil.png', bytes: SAMPLE_FILES.png },
        { name: 'ab\u202Egnp.exe', bytes: SAMPLE_FILES.png },
        { name: '..', bytes: SAMPLE_FILES.png },
        { name: `${'x'.repeat(300)}.png`, bytes: SAMPLE_FILES.png },
      ]),
    );
    const answer = (await res.json()) as { ticketId: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const ticket = await getTicket(app.deps.db, answer.ticketId);
    const names = ticket!.attachments.map((a) => a.filename);
    expect(names.slice(0, 4)).toEqual(['passwd.png', 'evil.png', 'abgnp.exe.png', 'attachment-4.png']);
    expect(names[4]).toMatch(/^x+\.png$/);
    expect(names[4]!.length).toBe(UPLOAD_LIMITS.maxFileNameLength);
    for (const name of names) expect(name).not.toMatch(/[/\\\p{Cc}\p{Cf}]/u);
    // busboy already keeps only the last path segment; sanitizeFileName repeats it (file-names.test.ts).
    expect(ticket!.attachments[0]?.originalFilename).toBe('passwd.png');
  });

  it('a body that never ends → 408 REQUEST_TIMEOUT within the time bound, nothing stored', async () => {
    const before = await snapshot();
    const res = await rawRequest(app.url, {
      headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ', 'Content-Length': '100000' },
      body:
        '--XYZ\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nAna\r\n' +
        '--XYZ\r\nContent-Disposition: form-data; name="attachments"; filename="a.png"\r\n' +
        'Content-Type: image/png\r\n\r\n',
    });
    expect(res.status).toBe(408);
    expect(res.body).toContain('REQUEST_TIMEOUT');
    expect(res.headers.toLowerCase()).toContain('connection: close');
    await expectNothingStored(before);
  });

  it('a body shorter than it claims (truncated multipart) → 400, nothing stored', async () => {
    const before = await snapshot();
    const res = await rawRequest(app.url, {
      headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nAna\r\n--XYZ\r\nContent-Disp',
    });
    expect(res.status).toBe(400);
    await expectNothingStored(before);
  });

  it('CAPTCHA rejected → 400 CAPTCHA_FAILED, nothing stored', async () => {
    const before = await snapshot();
    for (const token of ['bad-token', undefined]) {
      const res = await post(
        ticketForm({ recaptchaToken: token }, [{ name: 'a.png', bytes: SAMPLE_FILES.png }]),
      );
      await expectRefused(res, 400, 'CAPTCHA_FAILED');
    }
    await expectNothingStored(before);
  });

  it("a plain HTML form's CAPTCHA widget field (reCAPTCHA, Turnstile, hCaptcha) is the token", async () => {
    for (const field of CAPTCHA_WIDGET_FIELDS) {
      const accepted = await post(ticketForm({ recaptchaToken: undefined, [field]: 'ok-token' }));
      expect(accepted.status, field).toBe(200);
      await accepted.arrayBuffer();
      const refused = await post(ticketForm({ recaptchaToken: undefined, [field]: 'bad-token' }));
      await expectRefused(refused, 400, 'CAPTCHA_FAILED');
    }
  });

  it('bad fields → 400 VALIDATION_ERROR; not multipart → 415; files in another field → 400', async () => {
    const before = await snapshot();
    await expectRefused(await post(ticketForm({ urgency: 'urgent' })), 400, 'VALIDATION_ERROR');
    await expectRefused(await post(ticketForm({ email: 'nope' })), 400, 'VALIDATION_ERROR');
    await expectRefused(await post(ticketForm({ description: undefined })), 400, 'VALIDATION_ERROR');
    await expectRefused(
      await post(ticketForm({ productUrl: 'javascript:alert(1)' })),
      400,
      'VALIDATION_ERROR',
    );
    const other = ticketForm();
    other.append('file', new Blob([SAMPLE_FILES.png]), 'a.png');
    await expectRefused(await post(other), 400, 'VALIDATION_ERROR');
    const json = await fetch(`${app.url}/api/support/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: '{}',
    });
    await expectRefused(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectNothingStored(before);
  });
});

describe('ticket ids', () => {
  it('TICKET-YYYYMMDD-XXXXXX with the UTC date', () => {
    // 23:30 on 14 November in Bogotá is already the 15th in UTC.
    const id = newTicketId(new Date('2026-11-15T04:30:00Z'));
    expect(id).toMatch(/^TICKET-20261115-[A-Z0-9]{6}$/);
    const many = new Set(Array.from({ length: 2000 }, () => newTicketId()));
    expect(many.size).toBe(2000);
  });
});

/** A hand-written HTTP/1.1 request over a socket: for bodies fetch will not send (lying, endless). */
function rawRequest(
  baseUrl: string,
  request: { headers: Record<string, string>; body: string },
): Promise<{ status: number; headers: string; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    const head = [
      'POST /api/support/tickets HTTP/1.1',
      `Host: ${url.host}`,
      `X-Forwarded-For: ${freshIp()}`,
      ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
      ...(request.headers['Content-Length'] ? [] : [`Content-Length: ${Buffer.byteLength(request.body)}`]),
      '',
      '',
    ].join('\r\n');
    socket.on('connect', () => socket.write(head + request.body));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = data.slice(0, end);
      const length = Number(/content-length:\s*(\d+)/i.exec(headers)?.[1] ?? -1);
      const body = data.slice(end + 4);
      if (length >= 0 && Buffer.byteLength(body) >= length) {
        socket.destroy();
        resolve({ status: Number(headers.split(' ')[1]), headers, body });
      }
    });
    socket.on('error', reject);
    socket.setTimeout(20_000, () => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(data.slice(0, 200))}`));
    });
  });
}
