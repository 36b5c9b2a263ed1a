import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../test/support/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { JobQueue } from './job-queue.ts';

const hasPostgres = await postgresAvailable();
const JOBS = 60;

function runWorker(url: string, name: string): Promise<number | null> {
  const child = spawn(process.execPath, ['test/support/fixtures/queue-worker-process.ts'], {
    env: { PATH: process.env.PATH, DATABASE_URL: url, WORKER_NAME: name },
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('exit', resolve));
}

describe.skipIf(!hasPostgres)('two worker processes on one PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await migrateToLatest(database.handle.db);
    await sql`create table race_log (job_id text, worker text, started bigint, finished bigint)`.execute(
      database.handle.db,
    );
    // Each worker checks in here on its first job and waits for the other (see the fixture).
    await sql`create table race_workers (worker text primary key)`.execute(database.handle.db);
  });
  afterAll(() => database.dispose());

  it('never runs the same job twice, and runs every job', async () => {
    const queue = new JobQueue(database.handle.db);
    for (let i = 0; i < JOBS; i++) await queue.enqueue('race', i);
    const codes = await Promise.all([runWorker(database.url, 'a'), runWorker(database.url, 'b')]);
    expect(codes).toEqual([0, 0]);
    const rows = await sql<{ job_id: string; worker: string }>`select job_id, worker from race_log`.execute(
      database.handle.db,
    );
    expect(rows.rows).toHaveLength(JOBS);
    expect(new Set(rows.rows.map((r) => r.job_id)).size).toBe(JOBS);
    expect(new Set(rows.rows.map((r) => r.worker))).toEqual(new Set(['a', 'b']));
    expect((await queue.status('race')).counts.completed).toBe(JOBS);
  });
});
