/**
 * `node bench/analytics-write.ts [--batch B]`: server CPU per tracked event spent by the write path
 * alone (building the row and `writeBatch`: events, visitors, visits and rollups in one transaction),
 * for one visitor's page views committed B at a time (default 1, 20 and 50; group commit makes batches
 * of about that size under load). CPU time, not wall time: on a shared machine it moves less. Then
 * the pages each commit writes to SQLite's WAL (what a commit costs grows with them; a checkpoint
 * copies them again), counted with automatic checkpoints off. Run it in two checkouts to compare
 * write paths.
 */
import { rmSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { TrackInput } from '../src/features/analytics/schemas.ts';
import { writeBatch } from '../src/features/analytics/store.ts';
import { buildEventRow } from '../src/features/analytics/track.ts';

const args = process.argv.slice(2);
const i = args.indexOf('--batch');
const batches = i >= 0 ? [Number(args[i + 1])] : [1, 20, 50];
const EVENTS = 40_000;

const input: TrackInput = {
  type: 'page_view',
  page: 'https://agency.example/pricing?utm_source=news',
  url: undefined,
  referrer: 'https://www.google.com/',
  title: 'Pricing',
  properties: { plan: 'pro' },
  sessionId: null,
};
const client = { device: 'desktop', browser: 'Chrome', os: 'Linux' };
const event = () =>
  buildEventRow(input, {
    now: Date.now(),
    country: 'DE',
    visitorHash: 'h1',
    siteHosts: ['agency.example'],
    client,
  });

for (const size of batches) {
  const file = `/tmp/analytics-write-${process.pid}.db`;
  rmSync(file, { force: true });
  const handle = openDatabase(`sqlite:${file}`);
  await migrateToLatest(handle.db);
  const run = async (n: number) => {
    for (let k = 0; k < n; k += size) await writeBatch(handle.db, Array.from({ length: size }, event), 0);
  };
  await run(EVENTS / 2);
  const rounds: string[] = [];
  for (let r = 0; r < 4; r++) {
    const start = process.cpuUsage();
    await run(EVENTS);
    const used = process.cpuUsage(start);
    rounds.push(((used.user + used.system) / EVENTS).toFixed(1));
  }
  console.log(`batches of ${size}: ${rounds.join(' / ')} µs CPU per event (4 rounds of ${EVENTS})`);
  console.log(`  WAL frames per commit: ${(await walFramesPerCommit(handle.db, file, size)).toFixed(1)}`);
  await handle.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/** Pages written to the WAL per commit of `size` events: the WAL emptied, 200 commits, its frames counted. */
async function walFramesPerCommit(db: Db, file: string, size: number): Promise<number> {
  const COMMITS = 200;
  await sql`pragma wal_autocheckpoint = 0`.execute(db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  for (let k = 0; k < COMMITS; k++) await writeBatch(db, Array.from({ length: size }, event), 0);
  const { rows } = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  // A WAL file is a 32-byte header, then one frame per page written: a 24-byte header and the page.
  const frames = (statSync(`${file}-wal`).size - 32) / (24 + rows[0]!.page_size);
  await sql`pragma wal_autocheckpoint = 1000`.execute(db);
  return frames / COMMITS;
}
