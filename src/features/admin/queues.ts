import type { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { ADMIN_LIMITS } from './limits.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Pending jobs this old (and due) mean the workers are not keeping up, or not running. */
export const BACKLOG_AGE_MS = 5 * 60 * 1000;

/** Every registered queue's counts, health and latest dead jobs (payloads left out: they hold e-mails). */
export async function queuesOverview(deps: { jobs: JobQueue; worker: QueueWorker }, now = Date.now()) {
  const names = [...deps.worker.queueNames()].sort();
  return Promise.all(
    names.map(async (name) => {
      const [status, dead] = await Promise.all([
        deps.jobs.status(name),
        deps.jobs.list(name, { status: 'dead', limit: ADMIN_LIMITS.deadJobsShown }),
      ]);
      const backlog =
        status.ready > 0 && status.oldestPendingAt !== null && now - status.oldestPendingAt > BACKLOG_AGE_MS;
      const health: 'ok' | 'backlog' | 'dead-jobs' =
        status.counts.dead > 0 ? 'dead-jobs' : backlog ? 'backlog' : 'ok';
      return {
        name,
        counts: status.counts,
        ready: status.ready,
        oldestPendingAt: iso(status.oldestPendingAt),
        health,
        deadJobs: dead.map((job) => ({
          id: job.id,
          attempts: job.attempts,
          maxAttempts: job.maxAttempts,
          lastError: job.lastError,
          idempotencyKey: job.idempotencyKey,
          createdAt: new Date(job.createdAt).toISOString(),
          finishedAt: iso(job.finishedAt),
        })),
      };
    }),
  );
}

export function isKnownQueue(worker: QueueWorker, name: string): boolean {
  return worker.queueNames().includes(name);
}
