import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from './src/db/database.ts';
import { migrateToLatest } from './src/db/migrate.ts';
import { DAYS, seed } from './bench/analytics-seed.ts';
import { TEST_DATABASE_URL } from './test/support/database.ts';
const schema = 'h29r_pg';
const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
await admin.connect();
if (process.argv[2] === 'seed') {
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.query(`create schema ${schema}`);
}
const url = new URL(TEST_DATABASE_URL);
url.searchParams.set('options', `-c search_path=${schema}`);
const handle = openDatabase(url.toString(), { poolSize: 4 });
const db = handle.db;
if (process.argv[2] === 'seed') {
  await migrateToLatest(db);
  console.log(await seed(db, 'postgres', 1_000_000, Date.now() - (DAYS - 1) * 86_400_000));
  await sql`analyze`.execute(db);
  await sql`vacuum analytics_visits`.execute(db);
}
const keys = Array.from({ length: 279 }, (_, k) => k);
const plan = async (q: ReturnType<typeof sql>) => console.log((await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers) ${q}`.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n'));
await plan(sql`with s as materialized (select source, utm_source, utm_medium, utm_campaign, country, device, browser, os, entry_page, id from analytics_visits where sample = any(${keys}::int[]) and day >= '2026-01-01' and day <= '2026-12-31') select v.id from s v where true and v.utm_campaign = 'campaign-3'`);
await plan(sql`with s as materialized (select source, utm_source, utm_medium, utm_campaign, country, device, browser, os, entry_page, id from analytics_visits where sample = any(${keys}::int[]) and day >= '2026-01-01' and day <= '2026-12-31') select v.id from s v where true and (select 1 from analytics_events e2 where e2.visit_id = v.id and e2.page = '/page/40' limit 1) is not null`);
await handle.close();
await admin.end();
