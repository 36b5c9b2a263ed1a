import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import { inboxBacklog } from './store.ts';

/**
 * `analytics_inbox_events` and `analytics_inbox_oldest_seconds` on /metrics, read from the shared
 * database at scrape time (every instance reports the same): events acknowledged and not yet folded
 * into the statistics, and how long the oldest has waited. Folds keep both near zero; a growing age
 * means folds fail (the log says why) while tracking still answers 202.
 */
export function registerInboxGauges(registry: Registry, db: Db): void {
  new Gauge({
    name: 'analytics_inbox_events',
    help: 'Analytics events acknowledged and not yet folded into the statistics (all instances)',
    registers: [registry],
    async collect() {
      this.set((await inboxBacklog(db)).events);
    },
  });
  new Gauge({
    name: 'analytics_inbox_oldest_seconds',
    help: 'Seconds the oldest unfolded analytics event has waited (0: none waits)',
    registers: [registry],
    async collect() {
      const { oldestAt } = await inboxBacklog(db);
      this.set(oldestAt === null ? 0 : Math.max(0, (Date.now() - oldestAt) / 1000));
    },
  });
}
