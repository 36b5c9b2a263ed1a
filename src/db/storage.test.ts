import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
  testEngines,
} from '../../test/support/database.ts';
import { CacheStore } from './cache-store.ts';
import { migrateToLatest } from './migrate.ts';
import { incrementCounter, RateLimiter, readCounters } from './rate-limiter.ts';

const engines = await testEngines();

describe.each(engines)('storage on %s', (engine) => {
  let database: TestDatabase;
  let now = 1_000_000;
  const clock = () => now;

  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    return database.handle.db;
  }
  afterEach(() => database?.dispose());

  it('applies migrations once and again without error', async () => {
    const db = await fresh();
    await migrateToLatest(db);
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['jobs', 'cache_entries', 'rate_limits', 'counters']),
    );
  });

  it('cache: fresh within the TTL, stale after it, gone after the stale window', async () => {
    const cache = new CacheStore(await fresh(), clock);
    await cache.set('posts_cache:a', { n: 1 }, 10, 5000);
    expect(await cache.get('posts_cache:a')).toMatchObject({ value: { n: 1 }, fresh: true });
    now += 10_001;
    expect(await cache.get('posts_cache:a')).toMatchObject({ value: { n: 1 }, fresh: false });
    now += 5000;
    expect(await cache.get('posts_cache:a')).toBeNull();
    expect(await cache.prune()).toBe(1);
  });

  it('cache: set replaces, purge by prefix takes only that prefix (wildcards literal)', async () => {
    const cache = new CacheStore(await fresh(), clock);
    await cache.set('posts_cache:1', 'a', 60);
    await cache.set('posts_cache:1', 'b', 60);
    await cache.set('posts_cache:2', 'c', 60);
    await cache.set('postsXcache:3', 'd', 60);
    await cache.set('seo:1', 'e', 60);
    expect((await cache.get('posts_cache:1'))?.value).toBe('b');
    const stats = await cache.stats('posts_cache:');
    expect(stats.entries).toBe(2);
    expect(stats.bytes).toBe(6);
    expect(stats.oldest).toBe(now);
    expect(await cache.purgePrefix('posts_cache:')).toBe(2);
    expect(await cache.get('postsXcache:3')).not.toBeNull();
    expect(await cache.get('seo:1')).not.toBeNull();
    expect((await cache.stats('posts_cache:')).entries).toBe(0);
  });

  it('rate limiter: counts atomically under concurrency and resets with the window', async () => {
    const limiter = new RateLimiter(await fresh(), clock);
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('ip:1', 5, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(new Set(results.map((r) => r.count)).size).toBe(20);
    const denied = results.find((r) => !r.allowed);
    expect(denied?.retryAfterSeconds).toBe(60);
    now += 60_000;
    expect((await limiter.hit('ip:1', 5, 60_000)).count).toBe(1);
  });

  it('counters: increment and read', async () => {
    const db = await fresh();
    await Promise.all([incrementCounter(db, 'a'), incrementCounter(db, 'a'), incrementCounter(db, 'b', 5)]);
    expect(await readCounters(db, ['a', 'b', 'c'])).toEqual({ a: 2, b: 5, c: 0 });
  });
});

describe.skipIf(!engines.includes('postgres'))('PostgreSQL connections', () => {
  it('a pooled connection killed while idle (restart, failover, reaper) is replaced; the process lives on', async () => {
    let heard!: (error: Error) => void;
    const connectionError = new Promise<Error>((resolve) => {
      heard = resolve;
    });
    const database = await createTestDatabase('postgres', { onConnectionError: heard });
    try {
      const db = database.handle.db;
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
      const admin = new pg.Client(TEST_DATABASE_URL);
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await admin.end();
      // The idle client hears its socket close (however long a loaded server takes to end the
      // backend): without the pool's error listener, the process dies.
      expect(await connectionError).toBeInstanceOf(Error);
      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(again.rows[0]!.one).toBe(1);
    } finally {
      await database.dispose();
    }
  });
});
