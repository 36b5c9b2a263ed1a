import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import type { LlmClient } from './integrations/llm/llm-client.ts';
import { BuiltinSalesAgent } from './integrations/sales-agent/builtin-agent.ts';
import type { SalesAgent } from './integrations/sales-agent/sales-agent.ts';
import { WebSocketSalesAgent } from './integrations/sales-agent/websocket-agent.ts';
import { JobQueue } from './queue/job-queue.ts';
import { QueueWorker } from './queue/worker.ts';
import type { SearchIndex } from './search/search-index.ts';

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
  /** The language model, or null for the built-in offline engines. */
  llm?: LlmClient | null;
  /** The full-text index over ingested chunks. */
  search?: SearchIndex | null;
  /** The chat's sales agent: the WebSocket relay (SALES_AGENT_WS_URL) or the built-in agent. */
  salesAgent: SalesAgent;
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
  const salesAgent: SalesAgent = config.salesAgentWsUrl
    ? new WebSocketSalesAgent({
        url: config.salesAgentWsUrl,
        ...config.salesAgentTimeouts,
        logger: logger.child({ component: 'sales-agent' }),
      })
    : new BuiltinSalesAgent({
        // Read at each question, so the agent sees the index and model however they are wired.
        sources: {
          get search() {
            return deps.search;
          },
          get llm() {
            return deps.llm;
          },
        },
        wizardUrl: config.wizardUrl,
        maxDurationMs: config.salesAgentTimeouts.maxDurationMs,
        logger: logger.child({ component: 'sales-agent' }),
      });

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache: new CacheStore(database.db),
    rateLimiter: new RateLimiter(database.db),
    jobs,
    worker,
    salesAgent,
    shutdownSignal: shutdown.signal,
    async close() {
      shutdown.abort();
      await worker.stop(config.shutdownTimeoutMs);
      await database.close();
    },
  };
  return deps;
}
