import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { HOUSEKEEPING, Housekeeping } from './db/housekeeping.ts';
import type { Feature, FeatureModule } from './features/contract.ts';
import { FEATURES } from './features/index.ts';
import { PathRules } from './http/paths.ts';
import { createInfrastructure, type Infrastructure, type InfrastructureOverrides } from './infrastructure.ts';
import { crmQueueDefinition } from './integrations/crm/sync.ts';
import { emailQueueDefinition } from './integrations/mail/queue.ts';

/**
 * The composition root's product: the shared infrastructure (it is that very object, so handlers see
 * a test's later replacement of a client) with every feature built on it, the path rules they
 * declared, the housekeeping, and the way to end it all.
 */
export interface Dependencies extends Infrastructure {
  /** The features of `features/index.ts`, built, in list order. */
  features: readonly Feature[];
  /** Every feature's declared path properties, for the edge and the server. */
  paths: PathRules;
  /**
   * Deletes expired rate-limit windows, cache entries, old completed jobs and what features add
   * (started with the workers).
   */
  housekeeping: Housekeeping;
  /** Aborts `shutdownSignal`. */
  signalShutdown(): void;
  /** Writes out what every feature buffers (analytics' group commit). */
  flush(): Promise<void>;
  /**
   * Stops the queue workers (letting running jobs and background work finish within `boundMs`,
   * default SHUTDOWN_TIMEOUT_MS), flushes the features and closes the database.
   */
  close(boundMs?: number): Promise<void>;
}

export type DependencyOverrides = InfrastructureOverrides;

/** Builds the infrastructure, then each feature on it, and registers their queues and housekeeping. */
export async function createDependencies(
  config: Config,
  logger: Logger,
  overrides: DependencyOverrides = {},
  modules: readonly FeatureModule[] = FEATURES,
): Promise<Dependencies> {
  const owned = await createInfrastructure(config, logger, overrides);
  const infrastructure = owned.infrastructure;
  const { jobs, worker, rateLimiter, cache } = infrastructure;

  const features: Feature[] = [];
  for (const module of modules) {
    const parts = await module.build(infrastructure);
    features.push({ ...parts, name: module.name, paths: module.paths ?? [] });
  }

  worker.register(emailQueueDefinition(infrastructure));
  const crmRecords = Object.assign({}, ...features.map((feature) => feature.crmRecords ?? {}));
  worker.register(crmQueueDefinition(infrastructure, crmRecords));
  for (const feature of features) for (const queue of feature.queues ?? []) worker.register(queue);
  for (const feature of features) {
    for (const part of feature.personalData ?? []) infrastructure.personalData.register(part);
  }

  const housekeeping = new Housekeeping(
    [
      { name: 'rate_limits', run: () => rateLimiter.prune() },
      { name: 'cache_entries', run: () => cache.prune() },
      { name: 'completed_jobs', run: () => jobs.prune(HOUSEKEEPING.completedJobRetentionMs) },
      ...features.flatMap((feature) => feature.housekeeping ?? []),
    ],
    logger.child({ component: 'housekeeping' }),
  );
  const deps: Dependencies = Object.assign(infrastructure, {
    features,
    paths: new PathRules(features.flatMap((feature) => feature.paths)),
    housekeeping,
    signalShutdown: owned.signalShutdown,
    async flush() {
      await Promise.all(features.map((feature) => feature.flush?.()));
    },
    async close(boundMs = config.shutdownTimeoutMs) {
      const deadline = Date.now() + boundMs;
      owned.signalShutdown();
      // Work running after its request returned (a prototype generation) was aborted by the signal and
      // hands over to its queue; let it record that while the running jobs finish: both within the one bound.
      await Promise.all([worker.stop(boundMs), settlesWithin(infrastructure.background.idle(), boundMs)]);
      // Then the buffers are written out and the database closed, in what is left of the bound (a
      // moment at least): a database call that hangs must not keep the process alive past it.
      // Nothing acknowledged is lost by leaving then: an event is acknowledged once committed.
      const closing = (async () => {
        await Promise.all(
          features.map((feature) =>
            feature
              .flush?.()
              .catch((error) => logger.error({ err: error, feature: feature.name }, 'flush failed')),
          ),
        );
        await housekeeping.stop();
        await owned.closeDatabase();
      })();
      if (await settlesWithin(closing, Math.max(CLOSE_GRACE_MS, deadline - Date.now()))) return closing;
      logger.warn({ boundMs }, 'shutdown: the database did not close within the bound; leaving it');
      closing.catch(() => {}); // settling after the process has moved on: nothing is waiting for it
    },
  });
  return deps;
}

/** The least time the buffers' flush and the database's close get, however the bound was used before. */
const CLOSE_GRACE_MS = 1000;

/** Whether `work` settles (either way) within `ms`. */
function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}
