import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

/**
 * Kysely ships a dialect for better-sqlite3 but none for Node's built-in `node:sqlite`. Their statement
 * APIs differ in two ways this adapter bridges: node:sqlite takes spread parameters instead of an array,
 * and it tells a reading statement by `columns().length` instead of a `reader` flag.
 */
function adaptDatabase(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const stmt = db.prepare(sql);
      const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
      return {
        reader: stmt.columns().length > 0,
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

/** Opens a SQLite file (or `:memory:`) with WAL, foreign keys and a busy timeout. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

export function createNodeSqliteDialect(db: DatabaseSync): SqliteDialect {
  return new SqliteDialect({ database: adaptDatabase(db) });
}
