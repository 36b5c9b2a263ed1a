import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { insertTestLead } from '../../../test/support/features/admin.ts';
import {
  createPersonEverywhere,
  drainSideEffects,
  newPerson,
  PRIVACY_ENV,
  served,
} from '../../../test/support/features/privacy.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { putBlob } from '../../db/blob-store.ts';
import type { Db } from '../../db/database.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';
import { insertSupportMessage } from '../support/store.ts';
import { DAY_MS, RETENTION } from './limits.ts';

/**
 * Retention with a moved clock: data written now, then the clock (Date only: timers and the
 * database are real) moved past each period and the housekeeping run, as every instance runs it.
 */
const engines = await testEngines();

async function count(db: Db, table: string, where = sql`1 = 1`): Promise<number> {
  const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(
    db,
  );
  return Number(row.rows[0]?.n);
}

describe.each(engines)('retention on %s', { timeout: 60_000 }, (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const start = Date.now();
  const ana = newPerson('Ana');
  let spamLead = '';

  beforeAll(async () => {
    server = await startTestServer({ engine, env: PRIVACY_ENV });
    const db = server.deps.db;
    await createPersonEverywhere(served(server.url), ana);
    await drainSideEffects(server);
    spamLead = await insertTestLead(db, {
      name: 'Spammy McSpam',
      email: 'spam@spam.example',
      status: 'spam',
      classification: 'spam',
      createdAt: start,
    });
    await insertSupportMessage(db, {
      id: `msg_${randomUUID()}`,
      status: 'vendor',
      classification: 'vendor',
      classificationReason: 'test',
      classifiedBy: 'builtin',
      classificationScore: null,
      classificationReasons: [],
      language: 'en',
      name: 'Vendor Person',
      email: 'vendor@outsourcing.example',
      company: null,
      subject: null,
      message: 'We offer developers.',
      createdAt: start,
    });
    await server.deps.jobs.enqueue(EMAIL_QUEUE, { idempotencyKey: 'x', message: { to: 'gone@example.com' } });
    await db
      .updateTable('jobs')
      .set({ status: 'dead', updated_at: start })
      .where('idempotency_key', 'is', null)
      .execute();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => server?.close());

  const runAt = async (days: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + days * DAY_MS);
    return server.deps.housekeeping.runOnce();
  };

  it('deletes each kind once its period is over, and nothing before', async () => {
    const db = server.deps.db;
    const leads = () => count(db, 'leads');
    expect(await leads()).toBe(2);

    expect((await runAt(29)).personal_data_retention).toBe(0);
    expect(await leads()).toBe(2);

    // 30 days: spam and vendor submissions.
    expect((await runAt(31)).personal_data_retention).toBeGreaterThan(0);
    expect(await count(db, 'leads', sql`id = ${spamLead}`)).toBe(0);
    expect(await count(db, 'support_messages', sql`status = 'vendor'`)).toBe(0);
    expect(await leads()).toBe(1);
    expect(await count(db, 'support_messages')).toBe(1);
    expect(await count(db, 'mail_outbox')).toBeGreaterThan(0);

    // 90 days: the outbox's final e-mails and dead e-mail jobs.
    await runAt(91);
    expect(await count(db, 'mail_outbox')).toBe(0);
    expect(await count(db, 'jobs', sql`status = 'dead'`)).toBe(0);
    expect(await count(db, 'chat_messages')).toBeGreaterThan(0);

    // 180 days: chat history.
    await runAt(181);
    expect(await count(db, 'chat_messages')).toBe(0);
    expect(await count(db, 'support_tickets')).toBe(1);

    // Two years: tickets and their files, contact and support messages. Leads stay until erased.
    await runAt(731);
    expect(await count(db, 'support_tickets')).toBe(0);
    expect(await count(db, 'support_attachments')).toBe(0);
    expect(await count(db, 'blobs')).toBe(0);
    expect(await count(db, 'contact_submissions')).toBe(0);
    expect(await count(db, 'support_messages')).toBe(0);
    expect(await leads()).toBe(1);
    await runAt(5000);
    expect(await leads()).toBe(1);

    const audit = await db.selectFrom('privacy_audit').select(['reason', 'kind', 'email_hash']).execute();
    expect(new Set(audit.map((a) => a.kind))).toEqual(
      new Set([
        'spam and vendor leads',
        'spam and vendor support messages',
        "the outbox's e-mails and dead e-mail jobs",
        'chat messages',
        'support tickets and their files',
        'contact-form messages',
        'support messages',
      ]),
    );
    expect(audit.every((a) => a.reason === 'retention' && a.email_hash === null)).toBe(true);
  });

  it('collects a blob no row names, once past the grace period; never a blob a ticket names', async () => {
    const db = server.deps.db;
    const bea = newPerson('Bea');
    vi.useRealTimers();
    await createPersonEverywhere(served(server.url), bea);
    const orphan = await putBlob(db, Buffer.from('left behind by a bug'));
    const named = await count(db, 'blobs');
    expect(named).toBe(2);

    expect((await runAt((Date.now() - start) / DAY_MS)).orphan_blobs).toBe(0);
    const later = (Date.now() - start + RETENTION.orphanBlobGraceMs + 60_000) / DAY_MS;
    expect((await runAt(later)).orphan_blobs).toBe(1);
    expect(await count(db, 'blobs', sql`id = ${orphan.id}`)).toBe(0);
    expect(await count(db, 'blobs')).toBe(1);
  });
});

describe.each(engines)('retention periods set by variables on %s', { timeout: 60_000 }, (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const start = Date.now();
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { ...PRIVACY_ENV, RETENTION_LEADS_DAYS: '40', RETENTION_SPAM_DAYS: '0' },
    });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => server?.close());

  it('RETENTION_LEADS_DAYS erases leads with their prototypes; 0 keeps spam until erased', async () => {
    const db = server.deps.db;
    await createPersonEverywhere(served(server.url), newPerson('Dora'));
    await insertTestLead(db, { name: 'Spam', email: 'spam@spam.example', status: 'spam', createdAt: start });
    expect(await count(db, 'prototype_attempts')).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Past the default 30 days of spam: kept, the variable says 0.
    vi.setSystemTime(start + 39 * DAY_MS);
    await server.deps.housekeeping.runOnce();
    expect(await count(db, 'leads')).toBe(2);
    vi.setSystemTime(start + 41 * DAY_MS);
    await server.deps.housekeeping.runOnce();
    expect(await count(db, 'leads')).toBe(0);
    expect(await count(db, 'prototype_attempts')).toBe(0);
    expect(await count(db, 'prototype_events')).toBe(0);
    expect(await count(db, 'prototype_quota_holds')).toBe(0);
  });
});
