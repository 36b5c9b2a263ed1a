import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { type AnalyticsEventRow, writeBatch } from '../src/features/analytics/store.ts';

rmSync('/tmp/wb.db', { force: true });
const h = openDatabase('sqlite:/tmp/wb.db');
await migrateToLatest(h.db);
const mk = (i: number): AnalyticsEventRow => ({
  id: randomUUID(),
  type: 'page_view',
  page: '/pricing',
  referrer: 'https://www.google.com/',
  referrer_host: 'google.com',
  title: 'Pricing',
  properties: '{"plan":"pro"}',
  session_id: null,
  country: null,
  visitor_hash: 'abc' + (i % 7),
  day: '2026-11-21',
  created_at: Date.now(),
});
for (const n of [1, 10, 50, 200, 500]) {
  const t = performance.now();
  let total = 0;
  for (let k = 0; k < 40; k++) {
    await writeBatch(
      h.db,
      Array.from({ length: n }, (_, i) => mk(i)),
      0,
    );
    total += n;
  }
  const ms = performance.now() - t;
  console.log(n, (ms / 40).toFixed(2), 'ms/batch', ((total / ms) * 1000).toFixed(0), 'ev/s');
}
const t = performance.now();
for (let k = 0; k < 2000; k++)
  await h.db
    .insertInto('rate_limits')
    .values({ key: 'x', count: 1, window_end: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ count: 2 }))
    .execute();
console.log('limiter-like upsert', (((performance.now() - t) / 2000) * 1000).toFixed(1), 'us');
await h.close();
