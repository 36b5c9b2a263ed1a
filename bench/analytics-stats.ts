/**
 * `npm run bench:stats`: fills a fresh database with N analytics events through the real write path
 * (writeBatch: events + visitors + rollups in one transaction per batch), then times the stats query
 * (resolveRange + readAnalyticsStats, exactly what GET /api/analytics/stats runs) and the first page
 * of GET /api/analytics/events. Options: `--events N` (default 1 000 000), `--engine sqlite|postgres|both`
 * (default both; PostgreSQL from TEST_DATABASE_URL), `--runs R` (default 30). Bar: p50 < 300 ms.
 */
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, type Engine, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { readAnalyticsStats, resolveRange } from '../src/features/analytics/stats.ts';
import { type AnalyticsEventRow, listEvents, writeBatch } from '../src/features/analytics/store.ts';
import { utcDay } from '../src/features/analytics/track.ts';
import { TEST_DATABASE_URL } from '../test/support/database.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const total = Number(option('events') ?? 1_000_000);
const runs = Number(option('runs') ?? 30);
const engines: Engine[] =
  option('engine') === 'sqlite'
    ? ['sqlite']
    : option('engine') === 'postgres'
      ? ['postgres']
      : ['sqlite', 'postgres'];
const DAYS = 90;
const BATCH = 5000;

// A deterministic generator (mulberry32) so runs are comparable.
let state = 42;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** Skewed pick: low indexes are much more frequent (like real page popularity). */
const skewed = (n: number) => Math.floor(n * random() ** 3);
const COUNTRIES = [
  'US',
  'DE',
  'GB',
  'FR',
  'ES',
  'MX',
  'BR',
  'IN',
  'CA',
  'NL',
  'IT',
  'PL',
  'SE',
  'AR',
  'CO',
  'JP',
  'AU',
];
const TYPES = ['page_view', 'page_view', 'page_view', 'page_view', 'click', 'signup', 'scroll', 'download'];

function makeEvent(i: number, startMs: number): AnalyticsEventRow {
  const created = startMs + Math.floor((i / total) * DAYS * 86_400_000);
  const day = utcDay(created);
  const referrer = random() < 0.4 ? `ref${skewed(300)}.example` : null;
  return {
    id: `bench-${i}`,
    type: TYPES[Math.floor(random() * TYPES.length)]!,
    page: `/page/${skewed(2000)}`,
    referrer: referrer ? `https://${referrer}/` : null,
    referrer_host: referrer,
    title: 'A page',
    properties: random() < 0.1 ? '{"plan":"pro"}' : null,
    session_id: null,
    country: random() < 0.05 ? null : COUNTRIES[skewed(COUNTRIES.length)]!,
    visitor_hash: `v${Math.floor(random() * 4000)}`,
    day,
    created_at: created,
  };
}

async function open(engine: Engine): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  if (engine === 'sqlite') {
    const file = `/tmp/analytics-stats-${process.pid}.db`;
    rmSync(file, { force: true });
    const handle = openDatabase(`sqlite:${file}`);
    return { handle, cleanup: async () => rmSync(file, { force: true }) };
  }
  const schema = `bench_stats_${process.pid}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const handle = openDatabase(url.toString(), { poolSize: 10 });
  return {
    handle,
    cleanup: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function time(label: string, fn: () => Promise<unknown>) {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p50 = pct(samples, 50);
  return { label, p50, p95: pct(samples, 95), ok: p50 < 300 };
}

let failed = false;
for (const engine of engines) {
  const { handle, cleanup } = await open(engine);
  try {
    await migrateToLatest(handle.db);
    const now = Date.now();
    const start = now - DAYS * 86_400_000;
    const began = performance.now();
    for (let i = 0; i < total; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, total - i) }, (_, k) => makeEvent(i + k, start));
      await writeBatch(handle.db, batch, 0);
    }
    const fillSeconds = (performance.now() - began) / 1000;
    // Fresh planner statistics, as autovacuum would gather on a live database.
    if (engine === 'postgres') await sql`analyze`.execute(handle.db);
    const rollupRows = await handle.db
      .selectFrom('analytics_daily')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const last30 = utcDay(now - 29 * 86_400_000);
    const results = [
      await time('stats, all time, limit 10', async () =>
        readAnalyticsStats(handle.db, await resolveRange(handle.db, undefined, undefined, Date.now()), 10),
      ),
      await time('stats, last 30 days, limit 100', async () =>
        readAnalyticsStats(handle.db, await resolveRange(handle.db, last30, undefined, Date.now()), 100),
      ),
      await time('events, page 1 of 50', () => listEvents(handle.db, 1, 50)),
    ];
    console.log(
      `\n${engine}: ${total.toLocaleString('en')} events over ${DAYS} days, filled in ${fillSeconds.toFixed(1)} s ` +
        `(${Math.round(total / fillSeconds).toLocaleString('en')} events/s in batches of ${BATCH}); ${Number(rollupRows.n).toLocaleString('en')} rollup rows`,
    );
    for (const r of results) {
      console.log(
        `  ${r.label.padEnd(32)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms   ${r.ok ? 'ok' : 'MISSED (bar p50 < 300 ms)'}`,
      );
      if (!r.ok) failed = true;
    }
  } finally {
    await handle.close();
    await cleanup();
  }
}
if (failed) process.exitCode = 1;
