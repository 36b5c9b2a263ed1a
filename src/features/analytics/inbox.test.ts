import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { LogCapture } from '../../../test/support/test-app.ts';
import type { Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { RateLimiter } from '../../db/rate-limiter.ts';
import { createLogger } from '../../logger.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { AnalyticsRecorder } from './recorder.ts';
import { readAnalyticsStats } from './stats.ts';
import { appendToInbox, foldInbox, inboxSize } from './store.ts';
import type { TrackedEvent } from './tables.ts';
import { buildEventRow, utcDay } from './track.ts';

const engines = await testEngines();

/** A page view of `visitor` on `page`, `minutes` after the start of today. */
function pageView(visitor: string, page: string, minutes = 0): TrackedEvent {
  const now = Date.parse(`${utcDay(Date.now())}T00:00:00Z`) + minutes * 60_000;
  return buildEventRow(
    {
      type: 'page_view',
      page,
      url: undefined,
      referrer: null,
      title: null,
      properties: null,
      sessionId: null,
    },
    {
      now,
      country: null,
      visitorHash: visitor,
      siteHosts: ['agency.example'],
      client: { device: 'desktop', browser: 'Chrome', os: 'Linux' },
    },
  );
}

async function count(db: Db, table: 'analytics_events' | 'analytics_visits'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function today(db: Db) {
  const day = utcDay(Date.now());
  return readAnalyticsStats(db, { from: day, to: day }, 10, {});
}

describe.each(engines)('the analytics inbox on %s', (engine) => {
  let database: TestDatabase;
  const logs = new LogCapture();
  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    return database.handle.db;
  }
  const recorderOn = (db: Db) =>
    new AnalyticsRecorder(db, createLogger('info', logs.stream, []), {
      rateLimiter: new RateLimiter(db),
      perMinute: 0,
    });
  beforeEach(() => {
    logs.lines.length = 0;
  });
  afterEach(() => database?.dispose());

  it('acknowledges an event once it is in the inbox, and a fold stores it, its visit and rollups', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    await Promise.all([recorder.record(pageView('a', '/one')), recorder.record(pageView('a', '/two', 1))]);
    // Acknowledged: committed to the inbox, nothing folded yet (the fold waits up to foldIntervalMs).
    expect(await inboxSize(db)).toBe(2);
    expect(await count(db, 'analytics_events')).toBe(0);

    expect(await recorder.fold()).toBe(2);
    expect(await inboxSize(db)).toBe(0);
    expect(await count(db, 'analytics_events')).toBe(2);
    const visit = await db.selectFrom('analytics_visits').selectAll().executeTakeFirstOrThrow();
    expect([visit.entry_page, visit.exit_page, visit.pageviews]).toEqual(['/one', '/two', 2]);
    const stats = await today(db);
    expect(stats.totalEvents).toBe(2);
    expect(stats.visits).toBe(1);
    await recorder.flush();
  });

  it('folds on its own within foldIntervalMs of a commit', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    await recorder.record(pageView('a', '/alone'));
    await expect.poll(() => count(db, 'analytics_events'), { timeout: L.foldIntervalMs * 5 }).toBe(1);
    expect(await inboxSize(db)).toBe(0);
    await recorder.flush();
  });

  it('folds what another instance committed and did not live to fold, in the order it arrived', async () => {
    const db = await fresh();
    // The dead instance: its events were acknowledged (in the inbox), its process is gone.
    await appendToInbox(db, [pageView('b', '/entry', 0), pageView('b', '/middle', 5)], 0);
    await appendToInbox(db, [pageView('b', '/exit', 10)], 0);
    const survivor = recorderOn(db);
    expect(await survivor.fold()).toBe(3);
    const visit = await db.selectFrom('analytics_visits').selectAll().executeTakeFirstOrThrow();
    expect([visit.entry_page, visit.exit_page, visit.pageviews]).toEqual(['/entry', '/exit', 3]);
  });

  it('takes at most a batch per transaction and leaves the rest in order', async () => {
    const db = await fresh();
    await appendToInbox(db, [pageView('c', '/1', 0), pageView('c', '/2', 1), pageView('c', '/3', 2)], 0);
    expect((await foldInbox(db, 2)).taken).toBe(2);
    expect(await count(db, 'analytics_events')).toBe(2);
    const left = await db.selectFrom('analytics_inbox').select('event').execute();
    expect(left.map((r) => (JSON.parse(r.event) as TrackedEvent).row.page)).toEqual(['/3']);
  });

  it('drops a row that is no event, logged, and folds the rest', async () => {
    const db = await fresh();
    await appendToInbox(db, [pageView('d', '/before')], 0);
    await db
      .insertInto('analytics_inbox')
      .values({ id: '0000000000000000000000000000', event: 'not json' })
      .execute();
    await appendToInbox(db, [pageView('d', '/after', 1)], 0);
    const outcome = await foldInbox(db, 10);
    expect(outcome).toEqual({ taken: 3, unreadable: ['0000000000000000000000000000'] });
    expect(await count(db, 'analytics_events')).toBe(2);
  });

  it('drops an event the database refuses once the event after it folds, and nothing else', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    await appendToInbox(db, [pageView('e', '/good-1')], 0);
    // Read as an event (an id and a day), refused by the write (no page, no type).
    const refused = JSON.stringify({ row: { id: 'x', day: utcDay(Date.now()) }, kind: 'pageview' });
    await db
      .insertInto('analytics_inbox')
      .values({ id: 'ffffffffffff00000000refused0', event: refused })
      .execute();
    await db
      .insertInto('analytics_inbox')
      .values({ id: 'ffffffffffff00000001good0000', event: JSON.stringify(pageView('e', '/good-2', 1)) })
      .execute();

    await recorder.fold();
    expect(await inboxSize(db)).toBe(0);
    const pages = await db.selectFrom('analytics_events').select('page').orderBy('created_at').execute();
    expect(pages.map((r) => r.page)).toEqual(['/good-1', '/good-2']);
    const dropped = logs.lines.filter((l) => l.msg === 'analytics event dropped: the database refuses it');
    expect(dropped).toEqual([
      expect.objectContaining({ level: 50, inboxId: 'ffffffffffff00000000refused0' }),
    ]);
  });

  it('drops nothing when every fold fails (the fault is not an event’s), and folds it all once it is mended', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    await appendToInbox(db, [pageView('f', '/1'), pageView('f', '/2', 1)], 0);
    await sql`alter table analytics_daily rename to analytics_daily_away`.execute(db);
    await recorder.fold();
    expect(await inboxSize(db)).toBe(2);
    expect(logs.lines.some((l) => l.msg === 'analytics event dropped: the database refuses it')).toBe(false);

    await sql`alter table analytics_daily_away rename to analytics_daily`.execute(db);
    expect(await recorder.fold()).toBe(2);
    expect(await count(db, 'analytics_events')).toBe(2);
  });

  it('two instances folding at once store every event exactly once', async () => {
    const db = await fresh();
    const events = Array.from({ length: L.foldBatch + 500 }, (_, i) =>
      pageView(`v${i % 40}`, `/p${i % 7}`, i / 1000),
    );
    for (let i = 0; i < events.length; i += L.maxBatch)
      await appendToInbox(db, events.slice(i, i + L.maxBatch), 0);
    const [one, two] = [recorderOn(db), recorderOn(db)];
    const folded = await Promise.all([one.fold(), two.fold(), one.fold()]);
    expect(folded.reduce((a, b) => a + b, 0)).toBe(events.length);
    expect(await inboxSize(db)).toBe(0);
    expect(await count(db, 'analytics_events')).toBe(events.length);
    expect(await count(db, 'analytics_visits')).toBe(40);
    const stats = await today(db);
    expect(stats.totalEvents).toBe(events.length);
    expect(stats.uniqueVisitors).toBe(40);
  });
});
