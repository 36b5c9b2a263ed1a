import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

const STATEMENT_CACHE_SIZE = 200;

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

/**
 * Kysely ships a dialect for better-sqlite3 but none for Node's built-in `node:sqlite`. Their statement
 * APIs differ in two ways this adapter bridges: node:sqlite takes spread parameters instead of an array,
 * and it tells a reading statement by `columns().length` instead of a `reader` flag.
 */
function adaptDatabase(db: DatabaseSync): SqliteDatabase {
  // Prepared statements are reused by SQL text (Kysely prepares on every execution): preparing
  // costs more than running a small statement. Least recently used ones are finalised past the cap.
  // Whether it returns rows is kept with it (`columns()` builds a description of every column).
  const cache = new Map<string, { stmt: StatementSync; reader: boolean }>();
  const prepareCached = (sql: string): { stmt: StatementSync; reader: boolean } => {
    let prepared = cache.get(sql);
    if (prepared) {
      cache.delete(sql);
    } else {
      const stmt = db.prepare(sql);
      prepared = { stmt, reader: stmt.columns().length > 0 };
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, prepared);
    return prepared;
  };
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      const { stmt, reader } = prepareCached(sql);
      const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
      return {
        reader,
        all: (parameters) => stmt.all(...params(parameters)),
        run: (parameters) => stmt.run(...params(parameters)),
        iterate: (parameters) => stmt.iterate(...params(parameters)) as IterableIterator<unknown>,
      };
    },
  };
}

function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

/** Opens a SQLite file (or `:memory:`) with WAL, foreign keys, a busy timeout and a Unicode `lower()`. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    switchToWal(db);
  } catch (error) {
    db.close();
    throw error;
  }
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  // Deleted rows are overwritten with zeros, not left readable in free space: an erased person's
  // data must not stay in the file or in a backup of it (src/db/erased-content.ts).
  db.exec('PRAGMA secure_delete = ON');
  // SQLite's own lower() folds ASCII only ("ÁLVARO" stays "Álvaro"); PostgreSQL's folds every letter.
  // JavaScript's folding makes case-insensitive matches agree on both engines.
  db.function('lower', { deterministic: true }, (value) => {
    if (typeof value === 'string') return value.toLowerCase();
    return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  });
  return db;
}

/**
 * Switching a file to WAL upgrades a read lock to a write lock, and SQLite answers SQLITE_BUSY at
 * once, without the busy timeout, when another connection holds the write lock (waiting could
 * deadlock two connections doing the same). Two processes opening one new file together, one failed
 * to start with "database is locked". The switch is tried again, a few milliseconds apart, for as long
 * as the busy timeout. Opening is synchronous, and happens at start-up, so the wait blocks.
 */
function switchToWal(db: DatabaseSync): void {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (let waitMs = 2; ; waitMs = Math.min(waitMs * 2, 100)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() + waitMs > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
    }
  }
}

function isBusy(error: unknown): boolean {
  const { errcode } = error as { errcode?: unknown };
  return typeof errcode === 'number' && (errcode & 0xff) === SQLITE_BUSY;
}

const SQLITE_BUSY = 5;

export function createNodeSqliteDialect(db: DatabaseSync): SqliteDialect {
  return new SqliteDialect({ database: adaptDatabase(db) });
}
