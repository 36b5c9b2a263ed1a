import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import type { LlmClient } from './integrations/llm/llm-client.ts';
import { OpenAiCompatibleClient } from './integrations/llm/openai-compatible-client.ts';
import { JobQueue } from './queue/job-queue.ts';
import { QueueWorker } from './queue/worker.ts';
import type { SearchIndex } from './search/search-index.ts';
import { SqlSearchIndex } from './search/sql-search-index.ts';

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
  /** The OpenAI-compatible model (AI_BASE_URL); null means each feature uses the built-in offline engine. */
  llm: LlmClient | null;
  /** The full-text search index, filled only by `npm run ingest`. */
  search: SearchIndex;
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

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache: new CacheStore(database.db),
    rateLimiter: new RateLimiter(database.db),
    jobs,
    worker,
    llm: config.ai ? new OpenAiCompatibleClient(config.ai) : null,
    search: new SqlSearchIndex(database.db),
    shutdownSignal: shutdown.signal,
    async close() {
      shutdown.abort();
      await worker.stop(config.shutdownTimeoutMs);
      await database.close();
    },
  };
  return deps;
}
