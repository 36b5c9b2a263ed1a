import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import { BackgroundTasks } from './features/prototypes/background.ts';
import { prototypeContext } from './features/prototypes/context.ts';
import type { PrototypeJob } from './features/prototypes/generation.ts';
import { type PrototypeLeads, unavailableLeads } from './features/prototypes/lead-port.ts';
import { prototypeQueue, prototypeQueueDefinition } from './features/prototypes/queue.ts';
import {
  createPrototypeGenerator,
  type PrototypeGenerator,
} from './integrations/prototype-generator/index.ts';
import { JobQueue } from './queue/job-queue.ts';
import { type NamedQueue, QueueWorker } from './queue/worker.ts';

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
  /** Prototype generation: the generator chosen from config, the leads it reads, PrototypeQueue. */
  prototypes: {
    generator: PrototypeGenerator;
    leads: PrototypeLeads;
    queue: NamedQueue<PrototypeJob>;
    /** Generations running in this process after their request returned. */
    tasks: BackgroundTasks;
  };
  /** Aborted when the process starts shutting down: long-lived streams end on it. */
  shutdownSignal: AbortSignal;
  close(): Promise<void>;
}

export interface DependencyOverrides {
  database?: DatabaseHandle;
  backoffBaseMs?: number;
  /** A generator built for the test (e.g. pointed at a stand-in with short polling). */
  prototypeGenerator?: PrototypeGenerator;
  prototypeLeads?: PrototypeLeads;
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
  const prototypeTasks = new BackgroundTasks();

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache: new CacheStore(database.db),
    rateLimiter: new RateLimiter(database.db),
    jobs,
    worker,
    prototypes: {
      generator: overrides.prototypeGenerator ?? createPrototypeGenerator(config, null, logger),
      leads: overrides.prototypeLeads ?? unavailableLeads,
      queue: prototypeQueue(jobs),
      tasks: prototypeTasks,
    },
    shutdownSignal: shutdown.signal,
    async close() {
      shutdown.abort();
      await worker.stop(config.shutdownTimeoutMs);
      // Running generations were aborted by the signal and hand over to PrototypeQueue; let them record it.
      await Promise.race([
        prototypeTasks.idle(),
        new Promise((r) => setTimeout(r, config.shutdownTimeoutMs).unref()),
      ]);
      await database.close();
    },
  };
  worker.register(prototypeQueueDefinition(() => prototypeContext(deps)));
  return deps;
}
