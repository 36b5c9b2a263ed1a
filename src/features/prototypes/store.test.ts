import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  postgresAvailable,
  type TestDatabase,
  testEngines,
} from '../../../test/support/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { latestAttempt, type StartAttemptInput, startAttempt } from './store.ts';

const STALE_AFTER_MS = 45_000;
const input = (leadId: string, now: number): StartAttemptInput => ({
  leadId,
  kind: 'landing',
  language: 'en',
  generator: 'builtin',
  origin: 'trigger',
  staleAfterMs: STALE_AFTER_MS,
  now,
});

// Two connections interleaving inside one transaction: only PostgreSQL runs them concurrently.
describe.skipIf(!(await postgresAvailable()))('startAttempt on postgres', () => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.dispose());

  it('does not replace an attempt whose heartbeat lands between its stale read and the fence', async () => {
    database = await createTestDatabase('postgres');
    const db = database.handle.db;
    await migrateToLatest(db);
    const started = Date.now() - 10 * 60_000;
    const first = await startAttempt(db, input('lead-1', started));
    const now = Date.now();

    let beat: () => void = () => {};
    const heartbeatHeld = new Promise<void>((resolve) => {
      beat = resolve;
    });
    let heartbeatXid: string | undefined;
    // The running attempt's heartbeat, its transaction held open: the row is locked, the old
    // (stale) version still the one others read.
    const heartbeat = db.transaction().execute(async (tx) => {
      await tx
        .updateTable('prototype_attempts')
        .set({ heartbeat_at: now })
        .where('id', '=', first.attempt.id)
        .execute();
      const xid = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(tx);
      heartbeatXid = xid.rows[0]!.xid;
      await heartbeatHeld;
    });
    while (heartbeatXid === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const takeover = startAttempt(db, input('lead-1', now));
    // Once the takeover's fence waits for the heartbeat's transaction, let the heartbeat commit.
    for (;;) {
      const waiting = await sql<{ n: number }>`
        select count(*)::int as n from pg_locks
        where locktype = 'transactionid' and transactionid::text = ${heartbeatXid} and not granted`.execute(
        db,
      );
      if ((waiting.rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    beat();
    await heartbeat;

    const result = await takeover;
    expect(result.started).toBe(false);
    expect(result.attempt.id).toBe(first.attempt.id);
    expect(await latestAttempt(db, 'lead-1')).toMatchObject({ attempt: 1, status: 'generating' });
  });
});

describe.each(await testEngines())('startAttempt on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.dispose());

  it('a failed insert that is not a duplicate attempt number is an error, not a lost race', async () => {
    database = await createTestDatabase(engine);
    const db = database.handle.db;
    await migrateToLatest(db);
    const first = await startAttempt(db, input('lead-2', Date.now()));
    await db
      .updateTable('prototype_attempts')
      .set({ status: 'failed' })
      .where('id', '=', first.attempt.id)
      .execute();
    // A NOT NULL column left empty: before, any "constraint" message passed for the race's duplicate.
    await expect(startAttempt(db, { ...input('lead-2', Date.now()), kind: null as never })).rejects.toThrow(
      /null/i,
    );
  });
});
