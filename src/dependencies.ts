import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import { AnalyticsRecorder } from './features/analytics/recorder.ts';
import { type GeoIp, openGeoIp } from './integrations/geoip/geoip.ts';
import { JobQueue } from './queue/job-queue.ts';
import { QueueWorker } from './queue/worker.ts';

/** Everything a handler or a job may need, built once from config (see createDependencies). */
export interface Dependencies {
  config: Config;
  logger: Logger;
  db: Db;
  engine: Engine;
  cache: CacheStore;
  rateLimiter: RateLimiter;
  jobs: JobQueue;
  worker: QueueWorker;
  /** IP → country, offline (a MaxMind-format database read once at start-up). */
  geoip: GeoIp;
  /** Analytics writes, group-committed; flushed before the database closes. */
  analytics: AnalyticsRecorder;
  /** Aborted when the process starts shutting down: long-lived streams end on it. */
  shutdownSignal: AbortSignal;
  close(): Promise<void>;
}

export interface DependencyOverrides {
  database?: DatabaseHandle;
  backoffBaseMs?: number;
}

/** The composition root: opens the database, applies migrations, and builds every service once. */
export async function createDependencies(
  config: Config,
  logger: Logger,
  overrides: DependencyOverrides = {},
): Promise<Dependencies> {
  const database = overrides.database ?? openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const jobs = new JobQueue(database.db, { backoffBaseMs: overrides.backoffBaseMs });
  const worker = new QueueWorker(jobs, logger.child({ component: 'queue' }));
  const shutdown = new AbortController();
  const geoip = openGeoIp(config.analytics.geoipDbPath, (error) =>
    logger.warn({ err: error }, 'IP-to-country database unreadable: countries will be unknown'),
  );
  const rateLimiter = new RateLimiter(database.db);
  const analytics = new AnalyticsRecorder(database.db, logger.child({ component: 'analytics' }), {
    rateLimiter,
    perMinute: config.analytics.trackRateLimitPerMinute,
  });

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache: new CacheStore(database.db),
    rateLimiter,
    jobs,
    worker,
    geoip,
    analytics,
    shutdownSignal: shutdown.signal,
    async close() {
      shutdown.abort();
      await worker.stop(config.shutdownTimeoutMs);
      await analytics.flush().catch((error) => logger.error({ err: error }, 'analytics flush failed'));
      await database.close();
    },
  };
  return deps;
}
