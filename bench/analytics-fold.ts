/**
 * `node bench/analytics-fold.ts`: how long a fold of the analytics inbox takes on SQLite, and how long
 * it holds the thread (node:sqlite runs on it; the fold yields only between its transactions of
 * ANALYTICS_LIMITS.foldBatch events), and the CPU it spends per event, for 500, 2 000 and 8 000
 * events of 1 000 visitors committed to the inbox 50 at a time, as the track route commits them
 * under load. Run it in two checkouts, alternately, to compare a change to the fold.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { foldPending } from '../src/features/analytics/fold.ts';
import { ANALYTICS_LIMITS } from '../src/features/analytics/limits.ts';
import { appendToInbox } from '../src/features/analytics/store.ts';
import { buildEventRow } from '../src/features/analytics/track.ts';
import { createLogger } from '../src/logger.ts';

const file = join(tmpdir(), `analytics-fold-${process.pid}.db`);
const { db, close } = openDatabase(`sqlite:${file}`);
await migrateToLatest(db);
const logger = createLogger('warn', process.stderr, []);
const client = { device: 'desktop', browser: 'Chrome', os: 'Windows' };

console.log(`fold batch: ${ANALYTICS_LIMITS.foldBatch} events a transaction`);
for (const total of [500, 2000, 8000]) {
  const events = Array.from({ length: total }, (_, k) =>
    buildEventRow(
      {
        type: 'page_view',
        page: `https://agency.example/page/${(k * 7) % 211}?utm_source=s${k % 5}&utm_campaign=c${k % 9}`,
        url: undefined,
        referrer: 'https://www.google.com/',
        title: 'Page',
        properties: null,
        sessionId: null,
      },
      { now: Date.now(), country: 'DE', visitorHash: `v${k % 1000}`, siteHosts: ['agency.example'], client },
    ),
  );
  for (let i = 0; i < events.length; i += 50) await appendToInbox(db, events.slice(i, i + 50), 0);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // The monitor's timer is armed from the next turn: a fold begun in this one would go unmeasured.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const { folded } = await foldPending(db, logger);
  const ms = performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  // A timer in the next turn: the delay the fold's last transaction put on it counts too.
  await new Promise((resolve) => setTimeout(resolve, 1));
  delay.disable();
  console.log(
    `${folded} events folded in ${ms.toFixed(0)} ms (${((cpu.user + cpu.system) / folded).toFixed(1)} µs of CPU each); ` +
      `the thread held at most ${(delay.max / 1e6).toFixed(0)} ms at a time`,
  );
}
await close();
rmSync(file, { force: true });
rmSync(`${file}-wal`, { force: true });
rmSync(`${file}-shm`, { force: true });
