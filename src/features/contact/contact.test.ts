import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { CONTACT_LIMITS as L } from './limits.ts';

const engines = await testEngines();

const valid = { name: 'Ana Díaz', email: 'ana@example.com', subject: 'A new site', message: 'Hello there.' };

describe.each(engines)('contact on %s', (engine) => {
  let ctx: TestContext & { url: string };
  let ipCounter = 0;
  // TRUST_PROXY=xff lets each test speak from its own address, so the per-IP limit stays out of the way.
  const nextIp = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    ctx = await startTestServer({ engine, env: { TRUST_PROXY: 'xff' } });
  });
  afterAll(() => ctx.close());

  const submit = (body: unknown, ip = nextIp(), contentType = 'application/json') =>
    fetch(`${ctx.url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, 'X-Forwarded-For': ip },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const count = async () =>
    Number(
      (
        await ctx.deps.db
          .selectFrom('contact_submissions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a valid submission (trimmed, unknown fields ignored) and answers 201', async () => {
    const res = await submit({ ...valid, name: '  Ana Díaz  ', extra: 'ignored' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { success: boolean; id: string; createdAt: string };
    expect(body).toMatchObject({ success: true, id: expect.stringMatching(/^contact_[0-9a-f-]{36}$/) });
    const row = await ctx.deps.db
      .selectFrom('contact_submissions')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...valid, name: 'Ana Díaz' });
    expect(new Date(Number(row.created_at)).toISOString()).toBe(body.createdAt);
  });

  it.each([
    ['a missing name', { ...valid, name: undefined }, 'name'],
    ['a blank subject', { ...valid, subject: '   ' }, 'subject'],
    ['a bad e-mail', { ...valid, email: 'not-an-email' }, 'email'],
    ['a too long name', { ...valid, name: 'x'.repeat(L.nameLength + 1) }, 'name'],
    ['a too long e-mail', { ...valid, email: `${'a'.repeat(L.emailLength)}@example.com` }, 'email'],
    ['a too long subject', { ...valid, subject: 'x'.repeat(L.subjectLength + 1) }, 'subject'],
    ['a too long message', { ...valid, message: 'x'.repeat(L.messageLength + 1) }, 'message'],
    ['a number as message', { ...valid, message: 42 }, 'message'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, body, field) => {
    const before = await count();
    const res = await submit(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe('VALIDATION_ERROR');
    expect(json.error.message).toContain(field);
    expect(await count()).toBe(before);
  });

  it('accepts limits exactly at the bound', async () => {
    const res = await submit({
      name: 'n'.repeat(L.nameLength),
      email: 'edge@example.com',
      subject: 's'.repeat(L.subjectLength),
      message: 'm'.repeat(L.messageLength),
    });
    expect(res.status).toBe(201);
  });

  it('refuses malformed JSON (400) and bodies that are neither JSON nor a form (415)', async () => {
    expect((await submit('{"name":')).status).toBe(400);
    expect((await submit('[]')).status).toBe(400);
    expect((await submit('name=x', nextIp(), 'text/plain')).status).toBe(415);
  });

  it(`limits each IP to ${L.perIp.limit} submissions per hour (429 with Retry-After)`, async () => {
    const ip = nextIp();
    for (let i = 0; i < L.perIp.limit; i++) expect((await submit(valid, ip)).status).toBe(201);
    const res = await submit(valid, ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await submit(valid, nextIp())).status).toBe(201);
  });

  it('lists newest first with page/limit, caps limit, and returns everything with all=true', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await submit({ ...valid, subject: `paging ${i}` })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 3));
    }
    const total = await count();
    const first = (await (await fetch(`${ctx.url}/api/contact?page=1&limit=2`)).json()) as {
      submissions: { subject: string; createdAt: string }[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    expect(first.submissions.map((s) => s.subject)).toEqual(['paging 4', 'paging 3']);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total, totalPages: Math.ceil(total / 2) });
    const second = (await (await fetch(`${ctx.url}/api/contact?page=2&limit=2`)).json()) as {
      submissions: { subject: string }[];
    };
    expect(second.submissions.map((s) => s.subject)).toEqual(['paging 2', 'paging 1']);

    const all = (await (await fetch(`${ctx.url}/api/contact?all=true`)).json()) as {
      submissions: unknown[];
      pagination: { total: number };
    };
    expect(all.submissions).toHaveLength(total);
    expect(all.pagination.total).toBe(total);

    const defaults = (await (await fetch(`${ctx.url}/api/contact`)).json()) as {
      pagination: { limit: number };
    };
    expect(defaults.pagination.limit).toBe(L.list.defaultLimit);
    for (const bad of [
      `limit=${L.list.maxLimit + 1}`,
      'limit=0',
      'page=0',
      'page=abc',
      'all=yes',
      'page=1e1',
      'limit=0x10',
      'limit=5.0',
    ]) {
      const res = await fetch(`${ctx.url}/api/contact?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });
});

describe.each(engines)('the contact list past the all=true cap on %s', (engine) => {
  let ctx: TestContext & { url: string };
  beforeAll(async () => {
    ctx = await startTestServer({ engine });
  });
  afterAll(() => ctx.close());

  it(`pages of ${L.list.allCap}: the pagination tells the truth and page 2 reaches the rest`, async () => {
    const total = L.list.allCap + 3;
    const rows = Array.from({ length: total }, (_, i) => ({
      id: `contact_${String(i).padStart(6, '0')}`,
      name: 'N',
      email: 'n@example.com',
      subject: `s${i}`,
      message: 'm',
      created_at: 1_700_000_000_000 + i,
      status: 'new' as const,
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      await ctx.deps.db
        .insertInto('contact_submissions')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
    type List = {
      submissions: { subject: string }[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    const first = (await (await fetch(`${ctx.url}/api/contact?all=true`)).json()) as List;
    expect(first.submissions).toHaveLength(L.list.allCap);
    expect(first.submissions[0]?.subject).toBe(`s${total - 1}`);
    expect(first.pagination).toEqual({ page: 1, limit: L.list.allCap, total, totalPages: 2 });
    const second = (await (await fetch(`${ctx.url}/api/contact?all=true&page=2`)).json()) as List;
    expect(second.submissions.map((s) => s.subject)).toEqual(['s2', 's1', 's0']);
    expect(second.pagination).toEqual({ page: 2, limit: L.list.allCap, total, totalPages: 2 });
  });
});
