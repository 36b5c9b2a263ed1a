import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, type Engine, openDatabase } from '../db/database.ts';

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

/** Test schemas older than this are dropped when a new one is made. */
const STALE_SCHEMA_MS = 30 * 60 * 1000;

/**
 * A fresh, empty database: an in-memory SQLite one, or a new schema on the test PostgreSQL server
 * (selected through the connection's search_path).
 *
 * Schemas are not dropped on dispose: Kysely's migrator introspects every schema on the server, and a
 * schema dropped by one test file while another file migrates made that migration fail at random.
 * Each schema's name carries its creation time; schemas older than half an hour are dropped when a
 * new one is made, so test runs leave nothing behind for long.
 */
export async function createTestDatabase(
  engine: Engine,
  options: { sqlitePath?: string } = {},
): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const url = `sqlite:${options.sqlitePath ?? ':memory:'}`;
    const handle = openDatabase(url);
    return { url, handle, dispose: () => handle.close() };
  }
  const schema = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await dropStaleSchemas(admin);
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = withSearchPath(TEST_DATABASE_URL, schema);
  const handle = openDatabase(url, { poolSize: 5 });
  return {
    url,
    handle,
    dispose: () => handle.close(),
  };
}

async function dropStaleSchemas(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "select nspname as name from pg_namespace where nspname ~ '^test_[0-9]{13}_[0-9a-f]{8}$'",
  );
  const cutoff = Date.now() - STALE_SCHEMA_MS;
  for (const { name } of rows) {
    if (Number(name.split('_')[1]) < cutoff)
      await client.query(`drop schema if exists ${name} cascade`).catch(() => {});
  }
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}
