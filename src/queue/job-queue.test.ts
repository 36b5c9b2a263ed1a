import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../test/support/database.ts';
import { LogCapture } from '../../test/support/test-app.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { BACKOFF_BASE_MS, backoffDelayMs, type ClaimedJob, JobQueue } from './job-queue.ts';
import { namedQueue, PermanentJobError, QueueWorker } from './worker.ts';

const engines = await testEngines();
const silent = pino({ level: 'silent' });

describe('backoff', () => {
  it('doubles per attempt within ±20% and is capped', () => {
    expect(backoffDelayMs(1, 1000, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(3, 1000, () => 0.5)).toBe(4000);
    expect(backoffDelayMs(3, 1000, () => 0)).toBe(3200);
    expect(backoffDelayMs(50, 1000, () => 0.5)).toBe(15 * 60 * 1000);
  });
});

describe.each(engines)('job queue on %s', (engine) => {
  let database: TestDatabase;
  let now = 10_000_000;
  const clock = () => now;

  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    return new JobQueue(database.handle.db, { now: clock });
  }
  afterEach(() => database?.dispose());

  it('enqueues once per idempotency key', async () => {
    const queue = await fresh();
    const first = await queue.enqueue('mail', { to: 'a' }, { idempotencyKey: 'lead-1:confirmation' });
    const second = await queue.enqueue('mail', { to: 'a' }, { idempotencyKey: 'lead-1:confirmation' });
    const other = await queue.enqueue('crm', { to: 'a' }, { idempotencyKey: 'lead-1:confirmation' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    expect(other.created).toBe(true);
    expect((await queue.status('mail')).counts.pending).toBe(1);
  });

  it('honours delays and claims in run order, each job once', async () => {
    const queue = await fresh();
    await queue.enqueue('q', 'later', { delayMs: 5000 });
    await queue.enqueue('q', 'now');
    const first = await queue.claim<string>('q', 1000);
    expect(first?.payload).toBe('now');
    expect(first?.attempt).toBe(1);
    expect(await queue.claim('q', 1000)).toBeNull();
    await queue.complete(first!);
    now += 5000;
    expect((await queue.claim<string>('q', 1000))?.payload).toBe('later');
  });

  it('retries with exponential backoff, then keeps the job dead for inspection', async () => {
    const queue = await fresh();
    await queue.enqueue('q', { x: 1 }, { maxAttempts: 3 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await queue.claim('q', 1000);
      expect(job?.attempt).toBe(attempt);
      const next = await queue.fail(job!, new Error(`boom ${attempt}`));
      expect(next).toBe(attempt < 3 ? 'pending' : 'dead');
      if (attempt < 3) {
        expect(await queue.claim('q', 1000)).toBeNull(); // waiting out the backoff
        now += BACKOFF_BASE_MS * 2 ** attempt;
      }
    }
    const status = await queue.status('q');
    expect(status.counts.dead).toBe(1);
    const [dead] = await queue.list('q', { status: 'dead' });
    expect(dead?.lastError).toBe('boom 3');
    expect(await queue.retryDead('q')).toBe(1);
    expect((await queue.claim('q', 1000))?.attempt).toBe(1);
  });

  it('re-runs a job whose lease expired, and fences out the old owner', async () => {
    const queue = await fresh();
    await queue.enqueue('q', 'work');
    const lost = await queue.claim('q', 1000);
    expect(await queue.claim('q', 1000)).toBeNull();
    now += 1001;
    const taken = await queue.claim('q', 1000);
    expect(taken?.id).toBe(lost?.id);
    expect(taken?.attempt).toBe(2);
    expect(await queue.complete(lost!)).toBe(false);
    expect(await queue.heartbeat(lost!, 1000)).toBe(false);
    expect(await queue.complete(taken!)).toBe(true);
    expect((await queue.status('q')).counts.completed).toBe(1);
  });

  it('clears every job that is not running', async () => {
    const queue = await fresh();
    await queue.enqueue('q', 1);
    await queue.enqueue('q', 2);
    await queue.claim('q', 60_000);
    expect(await queue.clear('q')).toBe(1);
    expect((await queue.status('q')).counts).toEqual({ pending: 0, running: 1, completed: 0, dead: 0 });
  });

  it('worker runs handlers, retries failures and reports dead jobs once', async () => {
    const queue = await fresh();
    const worker = new QueueWorker(queue, silent);
    const seen: string[] = [];
    const deadPayloads: string[] = [];
    worker.register<string>({
      name: 'emails',
      maxAttempts: 2,
      handle: async (payload) => {
        seen.push(payload);
        if (payload === 'bad') throw new PermanentJobError('no such mailbox');
      },
      onDead: async (payload) => void deadPayloads.push(payload),
    });
    const emails = namedQueue<string>(queue, { name: 'emails', maxAttempts: 2 });
    await emails.enqueue('good');
    await emails.enqueue('bad');
    expect(await worker.drain('emails')).toBe(2);
    expect(seen.sort()).toEqual(['bad', 'good']);
    expect(deadPayloads).toEqual(['bad']);
    expect((await emails.status()).counts).toMatchObject({ completed: 1, dead: 1 });
  });

  it('while the database is away, polls say so once, not every time; then that they poll again', async () => {
    const queue = await fresh();
    const logs = new LogCapture();
    const worker = new QueueWorker(queue, createLogger('info', logs.stream, [], {}));
    worker.register<string>({ name: 'outage', handle: async () => {} });
    const claim = queue.claim.bind(queue);
    let away = true;
    let polls = 0;
    let failed = 0;
    vi.spyOn(queue, 'claim').mockImplementation(async (...args) => {
      polls++;
      if (away) {
        failed++;
        throw new Error('Connection terminated unexpectedly');
      }
      return claim(...args);
    });
    worker.start();
    try {
      // A poke wakes the loop at once, whatever its wait: six failed polls without waiting for them.
      while (polls < 6) {
        worker.poke();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      away = false;
      while (!logs.lines.some((l) => l.msg === 'queue polls again')) {
        worker.poke();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await worker.stop(1000);
    }
    const failures = logs.lines.filter((l) => String(l.msg).startsWith('queue poll failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 40, queue: 'outage' });
    expect(logs.lines.find((l) => l.msg === 'queue polls again')).toMatchObject({ failedPolls: failed });
  });

  it('a worker whose lease was taken over records nothing and reports no death', async () => {
    const queue = await fresh();
    const other = new QueueWorker(queue, silent); // a second instance
    const stalled = new QueueWorker(queue, silent);
    const dead: string[] = [];
    const runs: number[] = [];
    for (const worker of [stalled, other]) {
      worker.register<string>({
        name: 'q',
        maxAttempts: 3,
        leaseMs: 60_000,
        handle: async (_payload, job) => {
          runs.push(job.attempt);
          if (job.attempt > 1) return;
          // The first run stalls past its lease; the other instance takes the job over and completes it.
          now += 60_001;
          expect(await other.drain('q')).toBe(1);
          throw new PermanentJobError('the stalled run fails late');
        },
        onDead: async (payload) => void dead.push(payload),
      });
    }
    await queue.enqueue('q', 'work', { maxAttempts: 3 });
    expect(await stalled.drain('q')).toBe(1);
    expect(runs).toEqual([1, 2]);
    expect(dead).toEqual([]);
    expect((await queue.status('q')).counts).toMatchObject({ completed: 1, dead: 0 });
  });

  it('fail() reports a lost lease instead of the state it could not record', async () => {
    const queue = await fresh();
    await queue.enqueue('q', 'work', { maxAttempts: 1 });
    const lost = await queue.claim('q', 1000);
    now += 1001;
    const taken = await queue.claim('q', 1000);
    expect(taken?.attempt).toBe(2);
    expect(await queue.fail(taken!, 'lease expired on the final attempt', { permanent: true })).toBe('dead');
    expect(await queue.fail(lost!, new Error('late failure'))).toBeNull();
  });

  it("renews a running job's lease before it runs out, even at the shortest lease (1 s)", async () => {
    const beats: Promise<boolean>[] = [];
    class ObservedQueue extends JobQueue {
      override heartbeat(job: ClaimedJob, leaseMs: number) {
        const beat = super.heartbeat(job, leaseMs);
        beats.push(beat);
        return beat;
      }
    }
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    const queue = new ObservedQueue(database.handle.db, { now: clock });
    const worker = new QueueWorker(queue, silent, { leaseMs: 1000 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    worker.register({
      name: 'q',
      handle: async () => {
        started();
        await gate;
      },
    });
    await queue.enqueue('q', 'long');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const drained = worker.drain('q');
      await running;
      // Most of the lease goes by while the job runs: the worker must have renewed it by now.
      now += 900;
      await vi.advanceTimersByTimeAsync(900);
      await Promise.all(beats);
      now += 200;
      expect(await queue.claim('q', 1000)).toBeNull();
      finish();
      expect(await drained).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('job queue restart survival (SQLite file)', () => {
  it('keeps pending jobs across a close and reopen', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'queue-')), 'app.db');
    const first = await createTestDatabase('sqlite', { sqlitePath: path });
    await migrateToLatest(first.handle.db);
    await new JobQueue(first.handle.db).enqueue('q', { survive: true });
    await first.dispose();
    const second = await createTestDatabase('sqlite', { sqlitePath: path });
    await migrateToLatest(second.handle.db);
    const job = await new JobQueue(second.handle.db).claim<{ survive: boolean }>('q', 1000);
    expect(job?.payload).toEqual({ survive: true });
    await second.dispose();
  });
});
