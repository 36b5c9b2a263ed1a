import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../../test/support/database.ts';
import { createTestApp, type TestContext } from '../../test/support/test-app.ts';
import { NUL_REPLACEMENT } from './database.ts';

// Found by the hostile-input suite: `GET /api/leads/%00` answered 500 on PostgreSQL.
describe.runIf(await postgresAvailable())('PostgreSQL and U+0000 in visitor text', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ engine: 'postgres' });
  });
  afterAll(() => ctx?.close());

  it('stores and compares a string parameter with NUL (as U+FFFD) instead of failing', async () => {
    await ctx.deps.db.insertInto('counters').values({ name: 'a\u0000b', value: 1 }).execute();
    const rows = await sql<{ name: string }>`select name from counters where name = ${'a\u0000b'}`.execute(
      ctx.deps.db,
    );
    expect(rows.rows).toEqual([{ name: `a${NUL_REPLACEMENT}b` }]);
  });

  it('a NUL in a path, query or JSON field is a 4xx, never a 500', async () => {
    expect((await ctx.app.request('/api/leads/%00')).status).toBe(404);
    expect(
      (await ctx.app.request('/api/leads/lookup?email=%00', { headers: { 'x-chat-api-key': 'x' } })).status,
    ).toBeLessThan(500);
    const contact = await ctx.app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'N\u0000',
        email: 'nul@example.com',
        subject: 'S\u0000',
        message: 'M\u0000 message',
      }),
    });
    expect(contact.status).toBeLessThan(300);
  });
});
