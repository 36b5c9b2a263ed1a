import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

/**
 * Kysely ships a dialect for better-sqlite3 but none for Node's built-in `node:sqlite`. Their statement
 * APIs differ in two ways this adapter bridges: node:sqlite takes spread parameters instead of an array,
 * and it tells a reading statement by `columns().length` instead of a `reader` flag.
 */
/** Prepared statements kept per SQL text: preparing costs more than running a point query. */
const STATEMENT_CACHE_SIZE = 500;

function adaptDatabase(db: DatabaseSync): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached) return cached;
      const stmt = db.prepare(sql);
      const adapted: SqliteStatement = {
        reader: stmt.columns().length > 0,
        all: (parameters) => stmt.all(...params(parameters)),
        run: (parameters) => stmt.run(...params(parameters)),
        iterate: (parameters) => stmt.iterate(...params(parameters)) as IterableIterator<unknown>,
      };
      if (statements.size >= STATEMENT_CACHE_SIZE)
        statements.delete(statements.keys().next().value as string);
      statements.set(sql, adapted);
      return adapted;
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
