import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { trackedEvent } from '../../../test/support/features/analytics.ts';
import { LogCapture } from '../../../test/support/test-app.ts';
import { type Db, openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { RateLimiter } from '../../db/rate-limiter.ts';
import { createLogger } from '../../logger.ts';
import { foldPending } from './fold.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { AnalyticsRecorder, InboxFullError } from './recorder.ts';
import { readAnalyticsStats } from './stats.ts';
import { appendToInbox, foldInbox, inboxSize, newestInboxId } from './store.ts';
import type { TrackedEvent } from './tables.ts';
import { utcDay } from './track.ts';

const engines = await testEngines();

const pageView = (visitor: string, page: string, minutes = 0) => trackedEvent(visitor, page, minutes);

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
  let recorders: AnalyticsRecorder[] = [];
  const recorderOn = (db: Db, maxInboxEvents = 1_000_000) => {
    const recorder = new AnalyticsRecorder(db, createLogger('info', logs.stream, []), {
      rateLimiter: new RateLimiter(db),
      perMinute: 0,
      maxInboxEvents,
    });
    recorders.push(recorder);
    return recorder;
  };
  beforeEach(() => {
    logs.lines.length = 0;
  });
  afterEach(async () => {
    // As at shutdown: each recorder's pending fold runs now, not on a database already closed.
    await Promise.all(recorders.map((r) => r.flush()));
    recorders = [];
    await database?.dispose();
  });

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

  it('takes at most a batch per transaction, up to the key it is given, and leaves the rest in order', async () => {
    const db = await fresh();
    await appendToInbox(db, [pageView('c', '/1', 0), pageView('c', '/2', 1), pageView('c', '/3', 2)], 0);
    const upTo = (await newestInboxId(db))!;
    await appendToInbox(db, [pageView('c', '/later', 3)], 0);
    expect((await foldInbox(db, { upTo, limit: 2 })).taken).toBe(2);
    expect((await foldInbox(db, { upTo, limit: 2 })).taken).toBe(1);
    expect(await count(db, 'analytics_events')).toBe(3);
    const left = await db.selectFrom('analytics_inbox').select('event').execute();
    expect(left.map((r) => (JSON.parse(r.event) as TrackedEvent).row.page)).toEqual(['/later']);
  });

  it('drops a row that is no event (not JSON, or not an event’s shape), logged, and folds the rest', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    await appendToInbox(db, [pageView('d', '/before')], 0);
    const shapeless = JSON.stringify({
      ...pageView('d', '/x'),
      row: { ...pageView('d', '/x').row, page: null },
    });
    await db
      .insertInto('analytics_inbox')
      .values([
        { id: '0000000000000000000000000000', event: 'not json' },
        { id: '0000000000000000000000000001', event: shapeless },
      ])
      .execute();
    await appendToInbox(db, [pageView('d', '/after', 1)], 0);
    expect(await recorder.fold()).toBe(4);
    expect(await count(db, 'analytics_events')).toBe(2);
    expect(logs.lines.filter((l) => l.msg === 'analytics inbox rows dropped: not an event')).toEqual([
      expect.objectContaining({
        level: 50,
        inboxIds: ['0000000000000000000000000000', '0000000000000000000000000001'],
      }),
    ]);
  });

  it('drops the one event the database refuses for its values, and stores the rest of its batch', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    // The database refuses one page (as it would a value too long for an index): a constraint error.
    if (engine === 'sqlite') {
      await sql`create trigger refuse_page before insert on analytics_events when new.page = '/refused'
        begin select raise(abort, 'refused'); end`.execute(db);
    } else {
      await sql`create function refuse_page() returns trigger language plpgsql as $$ begin
        if new.page = '/refused' then raise exception 'refused' using errcode = 'check_violation'; end if;
        return new; end $$`.execute(db);
      await sql`create trigger refuse_page before insert on analytics_events
        for each row execute function refuse_page()`.execute(db);
    }
    await appendToInbox(
      db,
      [pageView('e', '/good-1'), pageView('e', '/refused', 1), pageView('e', '/good-2', 2)],
      0,
    );
    // In the refused batch, a row that is no event: dropped and logged on the one-at-a-time path too.
    await db
      .insertInto('analytics_inbox')
      .values({ id: '0000000000000000000000000000', event: 'not json' })
      .execute();

    expect(await recorder.fold()).toBe(4);
    expect(await inboxSize(db)).toBe(0);
    const pages = await db.selectFrom('analytics_events').select('page').orderBy('created_at').execute();
    expect(pages.map((r) => r.page)).toEqual(['/good-1', '/good-2']);
    expect(logs.lines.filter((l) => l.msg === 'analytics inbox rows dropped: not an event')).toEqual([
      expect.objectContaining({ inboxIds: ['0000000000000000000000000000'] }),
    ]);
    const dropped = logs.lines.filter(
      (l) => l.msg === 'analytics event dropped: the database refuses its values',
    );
    expect(dropped).toEqual([expect.objectContaining({ level: 50 })]);
    expect((await today(db)).pageviews).toBe(2);
  });

  it('drops nothing when a table is at fault, not an event (page views and engagements between), logs it once, and folds it all once mended', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    const engagement = (minutes: number) =>
      trackedEvent('f', '/1', minutes, { type: 'engagement', engagementMs: 5000 });
    await appendToInbox(db, [pageView('f', '/1'), engagement(1), pageView('f', '/2', 2), engagement(3)], 0);
    await sql`alter table analytics_events rename to analytics_events_away`.execute(db);
    await recorder.fold();
    await recorder.fold();
    expect(await inboxSize(db)).toBe(4);
    expect(logs.lines.filter((l) => /dropped/.test(String(l.msg)))).toEqual([]);
    expect(
      logs.lines.filter((l) => l.msg === 'analytics fold failed; its events wait in the inbox'),
    ).toHaveLength(1);

    await sql`alter table analytics_events_away rename to analytics_events`.execute(db);
    expect(await recorder.fold()).toBe(4);
    expect(await count(db, 'analytics_events')).toBe(2);
    expect(logs.lines.at(-1)).toMatchObject({ msg: 'analytics folds again', folded: 4 });
  });

  it('refuses events while folds fail and the inbox holds ANALYTICS_INBOX_MAX_EVENTS, logged once; takes them again once a fold succeeds', async () => {
    const db = await fresh();
    const recorder = recorderOn(db, 3);
    await sql`alter table analytics_events rename to analytics_events_away`.execute(db);
    for (const minute of [0, 1]) await recorder.record(pageView('g', '/1', minute));
    // Folds failing, the inbox counted at 2, under the limit: events are still taken.
    await recorder.fold();
    await recorder.record(pageView('g', '/1', 2));
    expect(await inboxSize(db)).toBe(3);
    // Counted again within inboxCountEveryFailures failures (the recorder's own timer may add some):
    // 3, the limit.
    for (let n = 0; n < L.inboxCountEveryFailures; n++) await recorder.fold();
    await expect(recorder.record(pageView('g', '/1', 3))).rejects.toBeInstanceOf(InboxFullError);
    await expect(recorder.record(pageView('g', '/1', 4))).rejects.toBeInstanceOf(InboxFullError);
    expect(await inboxSize(db)).toBe(3);
    expect(logs.lines.filter((l) => /inbox full/.test(String(l.msg)))).toMatchObject([
      { level: 50, inboxEvents: 3, maxInboxEvents: 3 },
    ]);

    await sql`alter table analytics_events_away rename to analytics_events`.execute(db);
    expect(await recorder.fold()).toBe(3);
    await recorder.record(pageView('g', '/1', 5));
    expect(logs.lines.filter((l) => l.msg === 'analytics takes events again')).toHaveLength(1);
    await recorder.flush();
    expect(await count(db, 'analytics_events')).toBe(4);
  });

  it('stores a UTM tag with U+0000 like the database keeps it, beside the same tag without', async () => {
    const db = await fresh();
    const recorder = recorderOn(db);
    const tagged = (visitor: string, tag: string) =>
      trackedEvent(visitor, `https://agency.example/p?utm_source=${tag}`);
    await Promise.all([recorder.record(tagged('v1', 'x%00')), recorder.record(tagged('v2', 'x'))]);
    await recorder.fold();
    expect(await inboxSize(db)).toBe(0);
    const stats = await today(db);
    expect(stats.utmSources.map((r) => (r as { utmSource?: string }).utmSource).sort()).toEqual([
      'x',
      'x\uFFFD',
    ]);
    expect(logs.lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });

  it.runIf(engine === 'postgres')(
    'two instances (two connection pools) appending and folding at once store every event exactly once',
    async () => {
      const db = await fresh();
      const other = openDatabase(database.url, { poolSize: 5 });
      try {
        // Each instance appends 40 commits of 50 events while both fold, then one folds what is left.
        let appended = 0;
        let producing = 2;
        const producers = [db, other.db].map(async (handle, k) => {
          for (let n = 0; n < 40; n++) {
            const batch = Array.from({ length: 50 }, (_, i) =>
              pageView(`v${(n * 50 + i) % 300}`, `/p${i % 9}`, 1 + k),
            );
            await appendToInbox(handle, batch, 0);
            appended += batch.length;
          }
          producing--;
        });
        const folders = [db, other.db].map(async (handle) => {
          const logger = createLogger('info', logs.stream, []);
          while (producing > 0) await foldPending(handle, logger);
        });
        await Promise.all([...producers, ...folders]);
        await foldPending(db, createLogger('info', logs.stream, []));
        expect(logs.lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
        expect(await inboxSize(db)).toBe(0);
        expect(await count(db, 'analytics_events')).toBe(appended);
        const stats = await today(db);
        expect(stats.totalEvents).toBe(appended);
        expect(stats.uniqueVisitors).toBe(300);
      } finally {
        await other.close();
      }
    },
  );
});
