import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../test/support/database.ts';
import { JobQueue } from '../queue/job-queue.ts';
import { CacheStore } from './cache-store.ts';
import { HOUSEKEEPING, Housekeeping } from './housekeeping.ts';
import { migrateToLatest } from './migrate.ts';
import { RateLimiter } from './rate-limiter.ts';

const engines = await testEngines();
const silent = pino({ level: 'silent' });

describe.each(engines)('housekeeping on %s', (engine) => {
  let database: TestDatabase;
  let now = 1_000_000_000;
  const clock = () => now;
  afterEach(() => database?.dispose());

  async function setUp() {
    database = await createTestDatabase(engine);
    const db = database.handle.db;
    await migrateToLatest(db);
    const limiter = new RateLimiter(db, clock);
    const cache = new CacheStore(db, clock);
    const jobs = new JobQueue(db, { now: clock });
    const housekeeping = new Housekeeping(
      [
        { name: 'rate_limits', run: () => limiter.prune() },
        { name: 'cache_entries', run: () => cache.prune() },
        { name: 'completed_jobs', run: () => jobs.prune(HOUSEKEEPING.completedJobRetentionMs) },
      ],
      silent,
    );
    return { db, limiter, cache, jobs, housekeeping };
  }

  it('deletes expired rate-limit windows, dead cache entries and week-old completed jobs, nothing else', async () => {
    const { db, limiter, cache, jobs, housekeeping } = await setUp();
    await limiter.hit('contact:203.0.113.7', 10, 60_000);
    await limiter.hit('leads:203.0.113.8', 10, 3_600_000);
    await cache.set('posts_cache:old', 'a', 10, 0);
    await cache.set('posts_cache:new', 'b', 3600, 0);
    await jobs.enqueue('email', { n: 1 });
    const done = await jobs.claim('email', 60_000);
    await jobs.complete(done!);
    await jobs.enqueue('email', { n: 2 });

    now += 2 * 60_000;
    expect(await housekeeping.runOnce()).toEqual({ rate_limits: 1, cache_entries: 1, completed_jobs: 0 });
    now += HOUSEKEEPING.completedJobRetentionMs;
    expect(await housekeeping.runOnce()).toEqual({ rate_limits: 1, cache_entries: 1, completed_jobs: 1 });
    const pending = await db.selectFrom('jobs').select('status').execute();
    expect(pending.map((j) => j.status)).toEqual(['pending']);
  });

  it('a failing task is logged and skipped; the others still run', async () => {
    const { limiter } = await setUp();
    const warnings: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const housekeeping = new Housekeeping(
      [
        {
          name: 'broken',
          run: () => Promise.reject(new Error('boom')),
        },
        { name: 'rate_limits', run: () => limiter.prune() },
      ],
      logger,
    );
    expect(await housekeeping.runOnce()).toEqual({ rate_limits: 0 });
    expect(warnings).toEqual([expect.objectContaining({ task: 'broken', msg: 'housekeeping task failed' })]);
  });

  it('runs on its schedule until stopped', async () => {
    let runs = 0;
    const housekeeping = new Housekeeping([{ name: 'count', run: async () => ++runs }], silent);
    housekeeping.start(20, 5);
    for (let waited = 0; runs < 2 && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await housekeeping.stop();
    const seen = runs;
    expect(seen).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(runs).toBe(seen);
  });
});

describe.each(engines)('rate-limit keys on %s', (engine) => {
  let database: TestDatabase;
  afterEach(() => database?.dispose());

  it('are stored as the limit name and a keyed hash, shared by every instance, never the IP', async () => {
    database = await createTestDatabase(engine);
    const db = database.handle.db;
    await migrateToLatest(db);
    const one = new RateLimiter(db);
    const other = new RateLimiter(db);
    await one.hit('contact:203.0.113.7', 5, 60_000);
    expect((await other.hit('contact:203.0.113.7', 5, 60_000)).count).toBe(2);
    expect((await other.hit('contact:203.0.113.70', 5, 60_000)).count).toBe(1);
    const keys = (await db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^contact:[0-9a-f]{32}$/);
    expect(await one.storedKey('contact:203.0.113.7')).toBe(await other.storedKey('contact:203.0.113.7'));
  });
});
