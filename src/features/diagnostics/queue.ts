import type { Logger } from 'pino';
import type { CacheStore } from '../../db/cache-store.ts';
import {
  type DiagnosticReport,
  type PageSpeedEngine,
  PageSpeedError,
  type Strategy,
} from '../../integrations/pagespeed/report.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import { namedQueue, PermanentJobError, type QueueDefinition } from '../../queue/worker.ts';
import { DIAGNOSTIC_LIMITS, DIAGNOSTICS_QUEUE } from './limits.ts';

export interface DiagnosticJob {
  url: string;
  strategy: Strategy;
  cacheKey: string;
}

export interface CachedDiagnostic {
  report: DiagnosticReport;
  analyzedAt: string;
}

/**
 * A dead job's `last_error` is all its waiting requests read, so a run the SSRF rules refused (the
 * page's name resolves to, or it redirects to, a non-public address) is marked there; `refusalOf`
 * reads the mark back, and the request answers 400 rather than 502.
 */
const REFUSED_MARK = '[refused] ';

/** The visitor's message when a dead job was an SSRF refusal, else null (an upstream failure). */
export function refusalOf(lastError: string | null): string | null {
  return lastError?.startsWith(REFUSED_MARK) ? lastError.slice(REFUSED_MARK.length) : null;
}

export function diagnosticsQueue(jobs: JobQueue) {
  return namedQueue<DiagnosticJob>(jobs, { name: DIAGNOSTICS_QUEUE, maxAttempts: 1 });
}

/**
 * The queue that runs analyses: one job per (URL, strategy, cache generation), so identical
 * requests on any instance wait for the same run. The result goes to the shared cache, which is what
 * the waiting requests read. Every failure is permanent (the visitor may retry) and its message, which
 * the waiting request shows, is always one written for visitors.
 */
export function diagnosticsQueueDefinition(deps: {
  engine: PageSpeedEngine;
  cache: CacheStore;
  logger: Logger;
  timeoutMs: number;
}): QueueDefinition<DiagnosticJob> {
  return {
    name: DIAGNOSTICS_QUEUE,
    concurrency:
      deps.engine.name === 'lighthouse'
        ? DIAGNOSTIC_LIMITS.lighthouseConcurrency
        : DIAGNOSTIC_LIMITS.psiConcurrency,
    leaseMs: deps.timeoutMs + 30_000,
    maxAttempts: 1,
    async handle(job) {
      const existing = await deps.cache.get<CachedDiagnostic>(job.cacheKey);
      if (existing?.fresh) return;
      let report: DiagnosticReport;
      try {
        report = await deps.engine.analyze({ url: job.url, strategy: job.strategy });
      } catch (error) {
        if (error instanceof PageSpeedError) {
          if (error.detail)
            deps.logger.warn({ detail: error.detail, engine: deps.engine.name }, 'analysis failed');
          throw new PermanentJobError(error.refused ? `${REFUSED_MARK}${error.message}` : error.message);
        }
        deps.logger.error({ err: error, engine: deps.engine.name }, 'diagnostic run failed');
        throw new PermanentJobError('The analysis failed.');
      }
      const value: CachedDiagnostic = { report, analyzedAt: new Date().toISOString() };
      await deps.cache.set(job.cacheKey, value, DIAGNOSTIC_LIMITS.cacheTtlSeconds, 0);
    },
  };
}
