import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
  testEngines,
} from '../../test/support/database.ts';
import { CacheStore } from './cache-store.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { incrementCounter, RateLimiter, readCounters } from './rate-limiter.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

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

  /** Terminates one backend from outside, as a failover does. */
  async function terminate(pid: number) {
    const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
    const admin = new pg.Client(TEST_DATABASE_URL);
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await admin.end();
  }

  it('a connection killed while checked out (mid-query, mid-transaction): the work fails, the error is heard once, the process lives', async () => {
    const heard: Error[] = [];
    const database = await createTestDatabase('postgres', { onConnectionError: (e) => heard.push(e) });
    try {
      const db = database.handle.db;
      // Mid-query: the statement running on it fails with the server's reason.
      const running = sql`select pg_backend_pid(), pg_sleep(30)`.execute(db).then(
        () => null,
        (error: unknown) => error,
      );
      await terminate(await waitForBackend(db, 'pg_sleep(30)'));
      const midQuery = await running;
      expect(isDatabaseUnavailable(midQuery), String(midQuery)).toBe(true);
      // Its end follows the server's message (a loaded machine may take a moment).
      await until(() => heard.length >= 1);

      // Mid-transaction, between two statements (the client is checked out, no query on it).
      const transaction = db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx);
        await terminate(rows[0]!.pid);
        // The connection's end arrives while the transaction holds the client, idle.
        await until(() => heard.length >= 2);
        await sql`select 1`.execute(tx);
      });
      const midTransaction = await transaction.then(
        () => null,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(midTransaction), String(midTransaction)).toBe(true);

      // Each broken connection is reported once (a dying one emits its FATAL message, then its end).
      expect(heard).toHaveLength(2);
      // The pool discarded both and opens new ones.
      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(again.rows[0]!.one).toBe(1);
    } finally {
      await database.dispose();
    }
  });
});

describe.skipIf(!engines.includes('postgres'))(
  'PostgreSQL statement and read timeouts (the serving pool)',
  () => {
    it('a statement past the statement timeout (a lock held elsewhere) fails as the database unavailable', async () => {
      const database = openDatabase(TEST_DATABASE_URL, { statementTimeoutMs: 200, poolSize: 2 });
      try {
        const slow = await sql`select pg_sleep(3)`.execute(database.db).catch((e: unknown) => e);
        expect((slow as { code?: string }).code).toBe('57014');
        expect(isDatabaseUnavailable(slow)).toBe(true);
        expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows[0]!.one).toBe(1);
      } finally {
        await database.close();
      }
    });

    it('a connection that stops answering (packets dropped): the query fails after the grace, the connection goes', async () => {
      const proxy = await startDroppingProxy(new URL(TEST_DATABASE_URL));
      const url = new URL(TEST_DATABASE_URL);
      url.host = `127.0.0.1:${proxy.port}`;
      const heard: Error[] = [];
      const database = openDatabase(url.toString(), {
        statementTimeoutMs: 100,
        poolSize: 1,
        onConnectionError: (e) => heard.push(e),
      });
      try {
        const db = database.db;
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
        proxy.dropping = true;
        // Mid-transaction, as the analytics writer's batch: it fails (no hang), its rollback too.
        const hung = await db
          .transaction()
          .execute((tx) => sql`select 2`.execute(tx))
          .catch((e: unknown) => e);
        expect(isDatabaseUnavailable(hung), String(hung)).toBe(true);
        proxy.dropping = false;
        // The one pooled connection was closed, not lent again: the next query gets a new one.
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
        expect(proxy.connections).toBe(2);
      } finally {
        await database.close();
        await proxy.close();
      }
    }, 20_000);
  },
);

/**
 * A TCP proxy to PostgreSQL that can silently drop everything in both directions (`dropping`): a
 * connection that neither answers nor breaks, as a network path or a failover can leave one.
 */
async function startDroppingProxy(target: URL) {
  const sockets = new Set<Socket>();
  const state = { port: 0, dropping: false, connections: 0, close: async () => {} };
  const server = createServer((client) => {
    state.connections++;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => state.dropping || upstream.write(chunk));
    upstream.on('data', (chunk) => state.dropping || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The pid of the pooled connection running `text` (seen from another pooled connection). */
async function waitForBackend(db: TestDatabase['handle']['db'], text: string): Promise<number> {
  for (;;) {
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where query like ${`%${text}%`} and pid <> pg_backend_pid()
        and query not like '%pg_stat_activity%'`.execute(db);
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
