import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { PrototypeQuota } from './quota.ts';

const engines = await testEngines();

function instance(url: string, name: string): Promise<{ allowed: number }> {
  const child = spawn(process.execPath, ['test/support/fixtures/quota-race-process.ts'], {
    env: { PATH: process.env.PATH, DATABASE_URL: url, INSTANCE: name, LIMIT: '2', RESERVATIONS: '150' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'))
        : reject(new Error(`exit ${code}`)),
    ),
  );
}

describe.each(engines)('the last slot across processes on %s', (engine) => {
  let database: TestDatabase;
  afterEach(() => database?.dispose());

  it('two instances racing for the last slot: exactly one reservation wins', async () => {
    const path = engine === 'sqlite' ? join(mkdtempSync(join(tmpdir(), 'quota-')), 'app.db') : undefined;
    database = await createTestDatabase(engine, { sqlitePath: path });
    await migrateToLatest(database.handle.db);
    const quota = new PrototypeQuota(database.handle.db, 2);
    // One slot of two is already used: the processes race for the last one.
    expect((await quota.reserve('landing', { ip: null, email: 'race@example.com' }, 'first')).allowed).toBe(
      true,
    );
    const [a, b] = await Promise.all([instance(database.url, 'a'), instance(database.url, 'b')]);
    expect(a.allowed + b.allowed).toBe(1);
    expect((await quota.usage({ ip: null, email: 'race@example.com' })).landing).toEqual({
      used: 2,
      limit: 2,
      remaining: 0,
    });
  }, 60_000);
});
