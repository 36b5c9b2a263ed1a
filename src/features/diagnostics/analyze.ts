import type { CacheStore } from '../../db/cache-store.ts';
import type { Db } from '../../db/database.ts';
import type { PageSpeedEngine, Strategy } from '../../integrations/pagespeed/report.ts';
import { normalizeUrl, SafeFetchError, type SafeFetcher } from '../../integrations/safe-fetch/safe-fetch.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { DiagnosticFailure } from './errors.ts';
import { DIAGNOSTIC_LIMITS } from './limits.ts';
import { type CachedDiagnostic, diagnosticsQueue, refusalOf } from './queue.ts';

export interface DiagnosticsContext {
  engine: PageSpeedEngine | null;
  safeFetch: SafeFetcher;
  cache: CacheStore;
  jobs: JobQueue;
  worker: QueueWorker;
  db: Db;
  now?: () => number;
  waitTimeoutMs?: number;
}

export interface DiagnosticResult extends CachedDiagnostic {
  url: string;
  cached: boolean;
}

/**
 * Answers one analysis request: validates and normalises the URL (SSRF rules, before anything runs),
 * serves the 24-hour cache, and otherwise enqueues — or joins — the run for this URL and strategy and
 * waits for its result.
 */
export async function requestDiagnostic(
  ctx: DiagnosticsContext,
  rawUrl: string,
  strategy: Strategy,
  signal?: AbortSignal,
): Promise<DiagnosticResult> {
  let url: string;
  try {
    // The static SSRF rules here (no private literals, ports 80/443, no credentials); the engine that
    // fetches the page itself (local Lighthouse) also resolves and checks the name, and every redirect,
    // and a refusal there is refused too (see waitForJob).
    url = ctx.safeFetch.checkStatic(normalizeUrl(rawUrl)).url.href;
  } catch (error) {
    if (error instanceof SafeFetchError) {
      throw new DiagnosticFailure(error.isPolicy ? 'refused_url' : 'failed', error.message);
    }
    throw error;
  }
  // After the URL check: a refused URL is refused whatever the configuration.
  if (!ctx.engine) {
    throw new DiagnosticFailure(
      'not_configured',
      'Page-speed analysis is not available: set PAGESPEED_API_KEY, or install Chromium for local Lighthouse.',
    );
  }
  const cacheKey = `diagnostic:${strategy}:${url}`;
  const entry = await ctx.cache.get<CachedDiagnostic>(cacheKey);
  if (entry?.fresh) return { url, cached: true, ...entry.value };

  // Everyone who sees the same cache state in the same window joins the same job (on any instance).
  const now = ctx.now?.() ?? Date.now();
  const generation = `${entry?.createdAt ?? 0}|${Math.floor(now / DIAGNOSTIC_LIMITS.failureWindowMs)}`;
  const { id } = await diagnosticsQueue(ctx.jobs).enqueue(
    { url, strategy, cacheKey },
    { idempotencyKey: `${cacheKey}|${generation}` },
  );
  ctx.worker.poke();
  await waitForJob(ctx, id, signal);
  const result = await ctx.cache.get<CachedDiagnostic>(cacheKey);
  if (!result) {
    throw new DiagnosticFailure('failed', 'The analysis finished but its result is gone; please try again.');
  }
  return { url, cached: false, ...result.value };
}

async function waitForJob(ctx: DiagnosticsContext, id: string, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + (ctx.waitTimeoutMs ?? DIAGNOSTIC_LIMITS.waitTimeoutMs);
  for (;;) {
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['status', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!job) throw new DiagnosticFailure('failed', 'The analysis was cancelled; please try again.');
    if (job.status === 'completed') return;
    if (job.status === 'dead') {
      const refusal = refusalOf(job.last_error);
      if (refusal !== null) throw new DiagnosticFailure('refused_url', refusal);
      throw new DiagnosticFailure('failed', job.last_error ?? 'The analysis failed.');
    }
    if (signal?.aborted) throw new DiagnosticFailure('failed', 'The request was cancelled.');
    if (Date.now() >= deadline) {
      throw new DiagnosticFailure(
        'failed',
        'The analysis is taking longer than expected; it continues in the background, so retry in a minute.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, DIAGNOSTIC_LIMITS.pollIntervalMs));
  }
}
