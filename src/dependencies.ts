import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import { registerDiagnosticsQueue } from './features/diagnostics/queue.ts';
import {
  findChrome,
  LIGHTHOUSE_DEFAULTS,
  LocalLighthouseEngine,
} from './integrations/pagespeed/lighthouse-engine.ts';
import { PageSpeedInsightsEngine, PSI_DEFAULTS } from './integrations/pagespeed/psi-client.ts';
import type { PageSpeedEngine } from './integrations/pagespeed/report.ts';
import { SafeFetcher } from './integrations/safe-fetch/safe-fetch.ts';
import { HttpWordPressClient, type WordPressClient } from './integrations/wordpress/wordpress-client.ts';
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
  /** The only way to fetch a visitor-given URL (SSRF rules; FETCH_ALLOW_HOSTS). */
  safeFetch: SafeFetcher;
  /** The posts upstream; null when WORDPRESS_API_URL is unset (posts routes answer 503). */
  wordpress: WordPressClient | null;
  /** Page-speed analysis: PSI with a key, else local Lighthouse when Chromium exists, else null (503). */
  pagespeed: PageSpeedEngine | null;
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
  const safeFetch = new SafeFetcher({ allowHosts: config.fetchAllowHosts });
  const pagespeed = choosePageSpeedEngine(config, safeFetch);
  const cache = new CacheStore(database.db);
  if (pagespeed) {
    registerDiagnosticsQueue(worker, {
      engine: pagespeed,
      cache,
      logger: logger.child({ component: 'diagnostics' }),
      timeoutMs:
        pagespeed.name === 'lighthouse' ? LIGHTHOUSE_DEFAULTS.timeoutMs : PSI_DEFAULTS.totalTimeoutMs,
    });
  }

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache,
    rateLimiter: new RateLimiter(database.db),
    jobs,
    worker,
    safeFetch,
    wordpress: config.wordpressApiUrl ? new HttpWordPressClient(config.wordpressApiUrl) : null,
    pagespeed,
    shutdownSignal: shutdown.signal,
    async close() {
      shutdown.abort();
      await worker.stop(config.shutdownTimeoutMs);
      await database.close();
    },
  };
  return deps;
}

function choosePageSpeedEngine(config: Config, safeFetch: SafeFetcher): PageSpeedEngine | null {
  if (config.pagespeed.apiKey) {
    return new PageSpeedInsightsEngine({ apiUrl: config.pagespeed.apiUrl, apiKey: config.pagespeed.apiKey });
  }
  const chromePath = findChrome(config.pagespeed.chromePath);
  if (!chromePath) return null;
  return new LocalLighthouseEngine({ chromePath, safeFetch, allowHosts: config.fetchAllowHosts });
}
