import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, type Engine, openDatabase } from '../../src/db/database.ts';

/** The PostgreSQL server tests use; CI exports it, and a local run falls back to the machine's. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | null = null;

/** True when TEST_DATABASE_URL answers; tests that need PostgreSQL skip with a message otherwise. */
export function postgresAvailable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      console.warn(
        `PostgreSQL tests skipped: ${TEST_DATABASE_URL} is not reachable (set TEST_DATABASE_URL).`,
      );
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/** The engines to run a storage suite on: SQLite always, PostgreSQL when reachable. */
export async function testEngines(): Promise<Engine[]> {
  return (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  url: string;
  handle: DatabaseHandle;
  /** Closes the handle and drops what the test created. */
  dispose(): Promise<void>;
}

/**
 * A fresh, empty database: an in-memory SQLite one, or a new schema on the test PostgreSQL server
 * (selected through the connection's search_path), dropped on dispose. (Dropping a schema while
 * another test file migrates is safe because the migrator introspects only its own schema; see
 * src/db/postgres-introspector.ts.)
 */
export async function createTestDatabase(
  engine: Engine,
  options: {
    sqlitePath?: string;
    onConnectionError?: (error: Error) => void;
    /** PostgreSQL's `application_name` of the pool's connections: a test terminates only its own. */
    applicationName?: string;
  } = {},
): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const url = `sqlite:${options.sqlitePath ?? ':memory:'}`;
    const handle = openDatabase(url);
    return { url, handle, dispose: () => handle.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = withSearchPath(TEST_DATABASE_URL, schema, options.applicationName);
  const handle = openDatabase(url, { poolSize: 5, onConnectionError: options.onConnectionError });
  return {
    url,
    handle,
    async dispose() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
    },
  };
}

function withSearchPath(url: string, schema: string, applicationName?: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  if (applicationName) parsed.searchParams.set('application_name', applicationName);
  return parsed.toString();
}
