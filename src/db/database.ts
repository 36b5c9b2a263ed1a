import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Kysely, PostgresAdapter, type Transaction } from 'kysely';
import { createNodeSqliteDialect, openSqlite } from './node-sqlite-dialect.ts';
import { CurrentSchemaPostgresDialect } from './postgres-introspector.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type DbOrTx = Kysely<Database> | Transaction<Database>;
export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** How much longer than its statement timeout a query may go unanswered before its connection is dropped. */
export const QUERY_READ_GRACE_MS = 5000;

/**
 * Opens the database named by DATABASE_URL: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`.
 * `onConnectionError` hears, once per connection, of a pooled PostgreSQL connection that broke (server
 * restart, failover, a terminated backend, an idle reaper), idle or checked out: a query running on it
 * fails (see `isDatabaseUnavailable`), the pool drops it and opens another when needed.
 *
 * `statementTimeoutMs` (PostgreSQL; the serving process sets it, migrations and scripts do not): the
 * server cancels a statement that runs longer (a lock held elsewhere), and a query not answered
 * QUERY_READ_GRACE_MS after that is failed here and its connection closed: a connection that hangs
 * without breaking (a network path that drops packets, a failover the client never hears of) would
 * otherwise hold its request, or the analytics writer's batch and every event behind it, forever.
 * Both errors read as the database unavailable (503, a job retried).
 */
export function openDatabase(
  url: string,
  options: {
    poolSize?: number;
    onConnectionError?: (error: Error) => void;
    statementTimeoutMs?: number;
  } = {},
): DatabaseHandle {
  if (url.startsWith('sqlite:')) {
    const path = sqliteFileOf(url) ?? ':memory:';
    const db = new Kysely<Database>({ dialect: createNodeSqliteDialect(openSqlite(path)) });
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  // pg is loaded only for PostgreSQL (synchronously: it is CommonJS), not for SQLite deployments.
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    // The kernel probes an idle connection that has gone quiet, so a dead one is noticed and dropped.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.statementTimeoutMs
      ? {
          statement_timeout: options.statementTimeoutMs,
          query_timeout: options.statementTimeoutMs + QUERY_READ_GRACE_MS,
        }
      : {}),
    // Epoch-millisecond columns are bigint; they fit in a double, so read them as numbers.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  // A client emits 'error' when its connection breaks. The pool listens only while the client is idle
  // in it; checked out (a query or transaction running), the client itself needs a listener, or the
  // error is an unhandled 'error' event that ends the process. node-postgres fails the client's
  // queries with the error (the request or job in flight fails) and the pool discards the client
  // when it is released. One listener for the client's whole life; it reports the first error only
  // (a dying connection may emit several: the server's FATAL message, then its end).
  pool.on('connect', (client) => {
    replaceNulInParameters(client);
    closeOnReadTimeout(client);
    let reported = false;
    client.on('error', (error) => {
      if (reported) return;
      reported = true;
      options.onConnectionError?.(error);
    });
  });
  // The pool re-emits an idle client's error (its own listener); the client's listener reported it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/** The file of a `sqlite:<path>` URL, resolved against the working directory; null for `sqlite::memory:`. */
export function sqliteFileOf(url: string): string | null {
  const location = url.slice('sqlite:'.length);
  return location === ':memory:' ? null : resolve(location);
}

/** What PostgreSQL text stores in place of U+0000 (which it cannot hold). */
export const NUL_REPLACEMENT = '\uFFFD';

/**
 * PostgreSQL text cannot hold U+0000: a parameter containing it fails the whole statement ("invalid
 * byte sequence"), so a visitor's NUL byte would turn any write or lookup into a 500. Each new
 * connection's string parameters get it replaced by U+FFFD (SQLite stores it as is).
 */
function replaceNulInParameters(client: import('pg').PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const clean = (value: unknown) =>
    typeof value === 'string' && value.includes('\u0000')
      ? value.replaceAll('\u0000', NUL_REPLACEMENT)
      : value;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) =>
    Array.isArray(values)
      ? query(text, values.map(clean), callback)
      : query(text, values, callback)) as typeof client.query;
}

/** What node-postgres fails a query with once its `query_timeout` has passed without an answer. */
export const QUERY_READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * A query that timed out leaves its connection waiting for an answer that may never come, and the
 * pool would lend it again (Kysely releases connections without an error): it is ended instead, so
 * the rest of its transaction fails at once ("not queryable") and the pool discards it on release.
 */
function closeOnReadTimeout(client: import('pg').PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_READ_TIMEOUT_MESSAGE)
          void client.end().catch(() => {});
      });
    }
    return result;
  }) as typeof client.query;
}

export function engineOf(db: DbOrTx | Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Runs `fn` in a transaction, or inside the one passed in. */
export async function withTransaction<T>(
  db: DbOrTx,
  fn: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return db.transaction().execute(fn);
}
