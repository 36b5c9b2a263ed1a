/**
 * `npm run bench:stats`: fills a fresh database with N analytics events (default 10 000 000) in
 * visits over 90 days, generated in bulk by SQL with the rollups computed from them (analytics-seed.ts),
 * then times GET /api/analytics/stats's work (resolveRange + readAnalyticsStats) without and with
 * filters, and the first page of GET /api/analytics/events. Options: `--events N`, `--engine
 * sqlite|postgres|both` (default both; PostgreSQL from TEST_DATABASE_URL), `--runs R` (default 15).
 * Bar: p50 < 200 ms.
 */
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, type Engine, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { filtersOf } from '../src/features/analytics/filters.ts';
import { listEvents } from '../src/features/analytics/rollup-reads.ts';
import { readAnalyticsStats, resolveRange } from '../src/features/analytics/stats.ts';
import { utcDay } from '../src/features/analytics/track.ts';
import { TEST_DATABASE_URL } from '../test/support/database.ts';
import { DAYS, seed } from './analytics-seed.ts';

const BAR_MS = 200;
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const total = Number(option('events') ?? 10_000_000);
const runs = Number(option('runs') ?? 15);
/** `--sample-visits N`: a sample budget of N visits and 3N events instead of the default. */
const sampleBudget = option('sample-visits')
  ? { visits: Number(option('sample-visits')), events: 3 * Number(option('sample-visits')) }
  : undefined;
const engines: Engine[] =
  option('engine') === 'sqlite'
    ? ['sqlite']
    : option('engine') === 'postgres'
      ? ['postgres']
      : ['sqlite', 'postgres'];

/** The filtered reports timed: broad and narrow, one filter and several. */
const FILTERS: Record<string, string>[] = [
  { source: 'Google' },
  { device: 'mobile' },
  { country: 'DE' },
  { utm_campaign: 'campaign-3' },
  { entry_page: '/page/7' },
  { page: '/page/40' },
  { source: '(none)', device: 'desktop', browser: 'Chrome' },
];

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

/** The sampling of the last stats answer timed, printed after its figures. */
let lastSampling: { rate: number; visitsRead: number } | null | undefined;

function sampledNote(): string {
  const sampling = lastSampling as { rate: number; visitsRead: number } | null | undefined;
  return sampling ? `   sampled: rate ${sampling.rate}, ${sampling.visitsRead} visits matched` : '';
}

async function time(label: string, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  lastSampling = undefined;
  try {
    await fn();
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await fn();
      samples.push(performance.now() - t);
    }
  } catch (error) {
    console.log(`  ${label.padEnd(58)} FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return { label, p50: Number.NaN, p95: Number.NaN, ok: false };
  }
  samples.sort((a, b) => a - b);
  const p50 = pct(samples, 50);
  const result = { label, p50, p95: pct(samples, 95), ok: p50 < BAR_MS };
  console.log(
    `  ${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(8)} ms   p95 ${result.p95.toFixed(1).padStart(8)} ms   ${result.ok ? 'ok' : `MISSED (bar p50 < ${BAR_MS} ms)`}` +
      sampledNote(),
  );
  return result;
}

/**
 * `--accuracy`: each filtered report sampled and exact (the budget lifted), and the sampled figures'
 * error. The exact reports take seconds to minutes each at these sizes.
 */
async function accuracy(db: DatabaseHandle['db']) {
  console.log('  accuracy of the sampled reports (sampled vs exact, all time):');
  for (const filters of [...FILTERS, { utm_campaign: 'campaign-15' }, { country: 'SE' }]) {
    const range = await resolveRange(db, undefined, undefined, Date.now());
    const sampled = await readAnalyticsStats(
      db,
      range,
      10,
      filtersOf(filters),
      sampleBudget ? { sampleBudget } : {},
    );
    const exact = await readAnalyticsStats(db, range, 10, filtersOf(filters), {
      sampleBudget: { visits: Number.POSITIVE_INFINITY, events: Number.POSITIVE_INFINITY },
    });
    const error = (a: number, b: number) => (b === 0 ? 'n/a' : `${(((a - b) / b) * 100).toFixed(1)} %`);
    const label = Object.entries(filters)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const top = exact.topPages[0];
    const topSampled = sampled.topPages.find((p) => p.page === top?.page);
    console.log(
      `    ${label.padEnd(44)} rate ${sampled.sampling?.rate ?? 1}: visits ${sampled.visits} vs ${exact.visits} (${error(sampled.visits, exact.visits)}), ` +
        `events ${sampled.totalEvents} vs ${exact.totalEvents} (${error(sampled.totalEvents, exact.totalEvents)}), ` +
        `bounce ${sampled.bounceRate} vs ${exact.bounceRate} %, duration ${sampled.visitDuration} vs ${exact.visitDuration} s, ` +
        `top page ${top?.page} ${topSampled?.count ?? 0} vs ${top?.count ?? 0}`,
    );
  }
}

let failed = false;
for (const engine of engines) {
  const { handle, cleanup } = await open(engine);
  try {
    await migrateToLatest(handle.db);
    const now = Date.now();
    const began = performance.now();
    const events = await seed(handle.db, engine, total, now - (DAYS - 1) * 86_400_000);
    const fillSeconds = (performance.now() - began) / 1000;
    // Fresh planner statistics, as autovacuum (PostgreSQL) or `pragma optimize` would gather on a live database
    // (PostgreSQL: and the visibility map its vacuum keeps, which index-only scans read.)
    await sql`analyze`.execute(handle.db);
    if (engine === 'postgres') await sql`vacuum analytics_visits, analytics_events`.execute(handle.db);
    const count = async (
      table: 'analytics_visits' | 'analytics_daily' | 'analytics_visit_daily' | 'analytics_visit_monthly',
    ) =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(handle.db)).rows[0]
          ?.n,
      );
    const [visits, rollups, visitRollups, visitMonthly] = await Promise.all([
      count('analytics_visits'),
      count('analytics_daily'),
      count('analytics_visit_daily'),
      count('analytics_visit_monthly'),
    ]);
    console.log(
      `\n${engine}: ${events.toLocaleString('en')} events in ${visits.toLocaleString('en')} visits over ${DAYS} days, ` +
        `seeded in ${fillSeconds.toFixed(0)} s; ${rollups.toLocaleString('en')} event rollup rows, ` +
        `${visitRollups.toLocaleString('en')} visit rollup rows (${visitMonthly.toLocaleString('en')} monthly)`,
    );
    const last30 = utcDay(now - 29 * 86_400_000);
    const stats =
      (from: string | undefined, limit: number, filters: Record<string, string> = {}, to?: string) =>
      async () => {
        const answer = await readAnalyticsStats(
          handle.db,
          await resolveRange(handle.db, from, to, Date.now()),
          limit,
          filtersOf(filters),
          sampleBudget ? { sampleBudget } : {},
        );
        lastSampling = answer.sampling;
        return answer;
      };
    // The tiers' worst case: ~15 days at each end read from the daily rows.
    const monthStart = (monthsBack: number) => {
      const d = new Date(now);
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() - monthsBack);
      return d.getTime();
    };
    const midFrom = utcDay(monthStart(2) + 15 * 86_400_000);
    const midTo = utcDay(monthStart(0) + 14 * 86_400_000);
    const results = [
      await time('all time, limit 10', stats(undefined, 10)),
      await time('last 30 days, limit 100', stats(last30, 100)),
      await time(`${midFrom} to ${midTo}, limit 10`, stats(midFrom, 10, {}, midTo)),
      ...(await FILTERS.reduce<Promise<Awaited<ReturnType<typeof time>>[]>>(async (done, filters) => {
        const list = await done;
        const label = Object.entries(filters)
          .map(([k, v]) => `${k}=${v}`)
          .join('&');
        list.push(await time(`all time, ${label}`, stats(undefined, 10, filters)));
        return list;
      }, Promise.resolve([]))),
      await time('last 30 days, device=mobile', stats(last30, 10, { device: 'mobile' })),
      await time('events, page 1 of 50', () => listEvents(handle.db, 1, 50)),
    ];
    if (results.some((r) => !r.ok)) failed = true;
    if (args.includes('--accuracy')) await accuracy(handle.db);
  } finally {
    await handle.close();
    await cleanup();
  }
}
if (failed) process.exitCode = 1;
