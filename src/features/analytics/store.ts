import { randomBytes } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { type Db, type DbOrTx, engineOf } from '../../db/database.ts';
import { incrementCounter } from '../../db/rate-limiter.ts';
import {
  EVENTS_INSERT,
  INBOX_INSERT,
  type InsertShape,
  insertQuery,
  MONTHLY_UPSERT,
  ROLLUPS_UPSERT,
  VISIT_MONTHLY_UPSERT,
  VISIT_ROLLUPS_UPSERT,
  VISITORS_INSERT,
  VISITS_UPSERT,
} from './insert-shapes.ts';
import { RollupSums } from './rollup-sums.ts';
import { type AnalyticsEventRow, analyticsEventsTable, type TrackedEvent, type VisitRow } from './tables.ts';
import { applyToVisits, VISIT_METRICS, visitKey, visitRollupDeltas } from './visits.ts';

/** Rollup dimensions kept in analytics_daily, one counter per (dimension, day, value). */
export type Dimension = 'total' | 'visitors' | 'page' | 'country' | 'type' | 'referrer' | 'engagement';

export const BOTS_COUNTER = 'analytics.bots_dropped';

/** Rows per INSERT statement: 22 columns × 400 stays far below PostgreSQL's 65 535 parameters. */
const INSERT_CHUNK = 400;

/**
 * Stores a batch of events in ONE transaction: the events, the day's first sighting of each visitor
 * hash, the visits they extend or start, and the rollup counters they move. Either all of it lands
 * or none (nothing half-stored). The track route goes through the inbox instead (appendToInbox, then
 * foldInbox); tests and the benchmarks write here directly.
 */
export async function writeBatch(db: Db, batch: TrackedEvent[], botsDropped: number): Promise<void> {
  await db.transaction().execute((tx) => applyBatch(tx, batch, botsDropped));
}

/**
 * Tracked events committed as they arrive, one row of JSON each in `analytics_inbox` (and the bots
 * dropped since the last commit): what a request waits for before its 202. Writing the events, their
 * visits and rollups is left to foldInbox, which does it for many at a time.
 */
export async function appendToInbox(db: Db, batch: TrackedEvent[], botsDropped: number): Promise<void> {
  const events = batch.map((event) => JSON.stringify(event));
  await db.transaction().execute(async (tx) => {
    // Keyed once the transaction has its connection: the keys follow the commits' order closely.
    const rows = events.map((event) => ({ id: inboxKey(), event }));
    const engine = engineOf(tx);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx.executeQuery(insertQuery(engine, INBOX_INSERT, rows.slice(i, i + INSERT_CHUNK)));
    }
    if (botsDropped > 0) await incrementCounter(tx, BOTS_COUNTER, botsDropped);
  });
}

/** This process's part of the inbox keys: two instances never make the same key. */
const INSTANCE = randomBytes(4).toString('hex');
let keyTime = 0;
let keyCount = 0;

/**
 * An inbox key: the time (12 hex digits, never going back within this process), this process's count
 * (8) and INSTANCE. In key order the rows of one instance are in the order they were committed, and
 * everyone's in the order of their clocks.
 */
function inboxKey(): string {
  keyTime = Math.max(keyTime, Date.now());
  keyCount = (keyCount + 1) % 0x1_0000_0000;
  return `${keyTime.toString(16).padStart(12, '0')}${keyCount.toString(16).padStart(8, '0')}${INSTANCE}`;
}

export interface FoldOutcome {
  /** Inbox rows taken (and deleted). */
  taken: number;
  /** Rows that were no event (not JSON, or not an event's shape): deleted with the rest, stored nowhere. */
  unreadable: string[];
}

/**
 * Takes inbox rows and stores their events (applyBatch) in the SAME transaction that deletes them:
 * a crash or a failure leaves them in the inbox, whole, for the next fold; nothing is folded twice.
 * `{ upTo, limit }`: the `limit` oldest rows with keys up to `upTo`; on PostgreSQL they are locked
 * in key order (`for update`), so a second instance folding at the same moment waits for them, then
 * takes the ones after. `{ id }`: that one row.
 */
export async function foldInbox(
  db: Db,
  which: { upTo: string; limit: number } | { id: string },
): Promise<FoldOutcome> {
  return db.transaction().execute(async (tx) => {
    const postgres = engineOf(tx) === 'postgres';
    const query =
      'id' in which
        ? CompiledQuery.raw(
            `delete from "analytics_inbox" where "id" = ${postgres ? '$1' : '?'} returning "id", "event"`,
            [which.id],
          )
        : CompiledQuery.raw(
            'delete from "analytics_inbox" where "id" in (select "id" from "analytics_inbox" where "id" <= ' +
              `${postgres ? '$1 order by "id" limit $2 for update' : '? order by "id" limit ?'}) returning "id", "event"`,
            [which.upTo, which.limit],
          );
    const { rows } = await tx.executeQuery<{ id: string; event: string }>(query);
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const events: TrackedEvent[] = [];
    const unreadable: string[] = [];
    for (const row of rows) {
      const event = readInboxEvent(row.event);
      if (event) events.push(event);
      else unreadable.push(row.id);
    }
    if (events.length > 0) await applyBatch(tx, events, 0);
    return { taken: rows.length, unreadable };
  });
}

const EVENT_KINDS = new Set(['pageview', 'event', 'engagement']);

/** An inbox row's event, when it has an event's shape (every column of its type): else null. */
function readInboxEvent(text: string): TrackedEvent | null {
  let event: TrackedEvent;
  try {
    event = JSON.parse(text) as TrackedEvent;
  } catch {
    return null;
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    !EVENT_KINDS.has(event.kind) ||
    typeof event.interactive !== 'boolean' ||
    typeof event.conversion !== 'boolean' ||
    !Number.isFinite(event.engagementMs) ||
    typeof event.row !== 'object' ||
    event.row === null
  ) {
    return null;
  }
  for (const [name, column] of EVENT_COLUMNS) {
    const value = (event.row as Record<string, unknown>)[name];
    const fits =
      (value === null && column.nullable) ||
      (column.sql === 'text' ? typeof value === 'string' : Number.isFinite(value));
    if (!fits) return null;
  }
  return event;
}

const EVENT_COLUMNS = Object.entries(analyticsEventsTable);

/** The newest inbox key now (null: the inbox is empty): a fold goes up to it and no further. */
export async function newestInboxId(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('analytics_inbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The keys of the `limit` oldest inbox rows up to `upTo`. */
export async function oldestInboxIds(db: Db, upTo: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('analytics_inbox')
    .select('id')
    .where('id', '<=', upTo)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes one inbox row unfolded: an event the database refuses (see fold.ts). */
export async function dropInboxRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('analytics_inbox').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * The inbox's backlog (all instances'): how many events wait, and when the oldest was committed (the
 * time its key begins with), or null when none does.
 */
export async function inboxBacklog(db: DbOrTx): Promise<{ events: number; oldestAt: number | null }> {
  const row = await db
    .selectFrom('analytics_inbox')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('id').as('oldest')])
    .executeTakeFirstOrThrow();
  return {
    events: Number(row.n),
    oldestAt: row.oldest ? Number.parseInt(row.oldest.slice(0, 12), 16) : null,
  };
}

/** How many tracked events wait in the inbox (all instances'). */
export async function inboxSize(db: DbOrTx): Promise<number> {
  return (await inboxBacklog(db)).events;
}

/** writeBatch's work, in the caller's transaction. */
async function applyBatch(tx: DbOrTx, batch: TrackedEvent[], botsDropped: number): Promise<void> {
  const counts = new RollupSums<number>();
  const bump = (dimension: Dimension, day: string, value: string | null, by = 1) => {
    if (value === null) return;
    // Keyed as the database will store the value: both engines write a lone surrogate (possible in
    // a JSON `type`, "\ud800") as U+FFFD. Two values that differ here but not there would be two
    // rows of one multi-row upsert hitting the same key, which PostgreSQL refuses ("cannot affect
    // row a second time"), failing the whole batch, other visitors' events included.
    const stored = value.toWellFormed();
    counts.set(dimension, day, stored, (counts.get(dimension, day, stored) ?? 0) + by);
  };
  const visitors = new Map<string, { day: string; visitor_hash: string }>();
  const events: AnalyticsEventRow[] = [];
  // A conversion carries its form's referrer to start a visit with, but is no referral of its own:
  // the visit's page view counted it already (stats.ts and sampled-stats.ts skip it too).
  const referrals: AnalyticsEventRow[] = [];
  for (const { row: e, kind, engagementMs, conversion } of batch) {
    if (kind === 'engagement') {
      bump('engagement', e.day, e.page, engagementMs);
      continue;
    }
    events.push(e);
    bump('total', e.day, '');
    bump('page', e.day, e.page);
    bump('country', e.day, e.country ?? '');
    bump('type', e.day, e.type);
    if (!conversion) referrals.push(e);
    visitors.set(visitKey(e.day, e.visitor_hash), { day: e.day, visitor_hash: e.visitor_hash });
  }
  const engine = engineOf(tx);
  const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
  // In key order too: two instances inserting the same new visitors wait for each other, never deadlock.
  const visitorRows = [...visitors.entries()].sort(byKey).map(([, row]) => row);
  const newVisitors = new Set<string>();
  for (let i = 0; i < visitorRows.length; i += INSERT_CHUNK) {
    const inserted = await tx.executeQuery<{ day: string; visitor_hash: string }>(
      insertQuery(engine, VISITORS_INSERT, visitorRows.slice(i, i + INSERT_CHUNK)),
    );
    for (const row of inserted.rows) {
      bump('visitors', row.day, '');
      newVisitors.add(visitKey(row.day, row.visitor_hash));
    }
  }
  // Visits before the events: applying the batch gives each event its visit_id.
  const changes = applyToVisits(batch, await openVisits(tx, batch), newVisitors);
  // After the visits: an event repeating its visit's referrer has it cleared there (visits.ts).
  for (const e of referrals) bump('referrer', e.day, e.referrer_host);
  const visitRows = changes.map((c) => c.after).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 0; i < visitRows.length; i += INSERT_CHUNK) {
    await tx.executeQuery(insertQuery(engine, VISITS_UPSERT, visitRows.slice(i, i + INSERT_CHUNK)));
  }
  for (let i = 0; i < events.length; i += INSERT_CHUNK) {
    await tx.executeQuery(insertQuery(engine, EVENTS_INSERT, events.slice(i, i + INSERT_CHUNK)));
  }
  // A 0 ms engagement moves nothing: no row for it.
  const rows = counts
    .sorted()
    .filter(({ sum }) => sum !== 0)
    .map(({ dimension, period, value, sum }) => ({ dimension, day: period, value, count: sum }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.executeQuery(insertQuery(engine, ROLLUPS_UPSERT, rows.slice(i, i + INSERT_CHUNK)));
  }
  await writeMonthly(tx, rows, ['count'], MONTHLY_UPSERT);
  const visitRollups = visitRollupDeltas(changes)
    .sorted()
    .filter(({ sum }) => VISIT_METRICS.some((metric) => sum[metric] !== 0))
    .map(({ dimension, period, value, sum }) => ({ dimension, day: period, value, ...sum }));
  for (let i = 0; i < visitRollups.length; i += INSERT_CHUNK) {
    await tx.executeQuery(insertQuery(engine, VISIT_ROLLUPS_UPSERT, visitRollups.slice(i, i + INSERT_CHUNK)));
  }
  await writeMonthly(tx, visitRollups, VISIT_METRICS, VISIT_MONTHLY_UPSERT);
  if (botsDropped > 0) await incrementCounter(tx, BOTS_COUNTER, botsDropped);
}

/**
 * The monthly tier (analytics_monthly, analytics_visit_monthly): the batch's daily rollup deltas
 * folded by month (`YYYY-MM`) and added in the same transaction, so a month's row is always the sum
 * of its days, written in (dimension, month, value) order (the lock order, see RollupSums.sorted).
 */
async function writeMonthly<Metric extends string>(
  tx: DbOrTx,
  daily: ({ dimension: string; day: string; value: string } & Record<Metric, number>)[],
  metrics: readonly Metric[],
  shape: typeof MONTHLY_UPSERT | typeof VISIT_MONTHLY_UPSERT,
): Promise<void> {
  if (daily.length === 0) return;
  const byMonth = new RollupSums<Record<string, string | number>>();
  for (const row of daily) {
    const month = row.day.slice(0, 7);
    const sum = byMonth.get(row.dimension, month, row.value);
    if (sum === undefined) {
      const fresh: Record<string, string | number> = { dimension: row.dimension, month, value: row.value };
      for (const m of metrics) fresh[m] = row[m];
      byMonth.set(row.dimension, month, row.value, fresh);
    } else {
      for (const m of metrics) (sum[m] as number) += row[m];
    }
  }
  // Days of one month can cancel out (a visit's exit page moved from a page and back): no row for that.
  const rows = byMonth
    .sorted()
    .map(({ sum }) => sum)
    .filter((sum) => metrics.some((m) => sum[m] !== 0));
  const engine = engineOf(tx);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.executeQuery(
      insertQuery(
        engine,
        shape as InsertShape<Record<string, string | number>>,
        rows.slice(i, i + INSERT_CHUNK),
      ),
    );
  }
}

/**
 * Each visitor's latest visit of the day, for the visitors of a batch. On PostgreSQL the rows are
 * locked (in key order) until the commit: another instance extending the same visit waits for this
 * one instead of overwriting it.
 */
async function openVisits(tx: DbOrTx, batch: TrackedEvent[]): Promise<Map<string, VisitRow>> {
  const hashesByDay = new Map<string, Set<string>>();
  for (const { row } of batch) {
    const hashes = hashesByDay.get(row.day) ?? new Set<string>();
    hashes.add(row.visitor_hash);
    hashesByDay.set(row.day, hashes);
  }
  const open = new Map<string, VisitRow>();
  const engine = engineOf(tx);
  for (const [day, hashes] of hashesByDay) {
    const list = [...hashes].sort();
    for (let i = 0; i < list.length; i += INSERT_CHUNK) {
      const chunk = list.slice(i, i + INSERT_CHUNK);
      const { rows } = await tx.executeQuery<VisitRow>(
        CompiledQuery.raw(openVisitsText(engine, chunk.length), [day, ...chunk]),
      );
      // Ordered by start: the last one of a visitor is its latest visit.
      for (const row of rows) open.set(visitKey(day, row.visitor_hash), row);
    }
  }
  return open;
}

const openVisitsTexts = new Map<string, string>();

/** The open-visits SELECT by engine and number of hashes, its text built once (as the INSERTs' are). */
function openVisitsText(engine: 'sqlite' | 'postgres', count: number): string {
  const key = `${engine}:${count}`;
  let text = openVisitsTexts.get(key);
  if (text === undefined) {
    const list = Array.from({ length: count }, (_, i) => (engine === 'postgres' ? `$${i + 2}` : '?')).join(
      ', ',
    );
    text =
      `select * from "analytics_visits" where "day" = ${engine === 'postgres' ? '$1' : '?'} ` +
      `and "visitor_hash" in (${list}) order by "visitor_hash", "started_at"` +
      (engine === 'postgres' ? ' for update' : '');
    openVisitsTexts.set(key, text);
  }
  return text;
}

/**
 * The salt of `day`, created by whichever instance asks first; older salts go (and visitor rows older
 * than the day before, see pruneAnalyticsDays).
 */
export async function daySalt(db: Db, day: string, fresh: string, now: number): Promise<string> {
  await db
    .insertInto('analytics_salts')
    .values({ day, salt: fresh, created_at: now })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const row = await db
    .selectFrom('analytics_salts')
    .select('salt')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  await pruneAnalyticsDays(db, day);
  return row.salt;
}

/**
 * Deletes the salts of days before `today`: once a day's salt is gone its hashes cannot be linked back
 * to an IP, even by us. The visitor rows (hashes only) of yesterday stay one more day: an instance
 * whose clock is a little behind, or events queued at midnight, still record yesterday's visitors, and
 * must find them there rather than count them again. Run by the first event of a day and by the
 * housekeeping (a quiet site gets no event to do it).
 */
export async function pruneAnalyticsDays(db: Db, today: string): Promise<number> {
  const salts = await db.deleteFrom('analytics_salts').where('day', '<', today).executeTakeFirst();
  const visitors = await db
    .deleteFrom('analytics_visitors')
    .where('day', '<', previousDay(today))
    .executeTakeFirst();
  return Number(salts.numDeletedRows) + Number(visitors.numDeletedRows);
}

function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
