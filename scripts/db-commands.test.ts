import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable } from '../test/support/database.ts';

const hasPostgres = await postgresAvailable();
const SCRIPTS = import.meta.dirname;
const MIGRATIONS = (await readdir(join(SCRIPTS, '../src/db/migrations'))).filter((f) => f.endsWith('.ts'));

// Each command runs in its own empty folder, so that no `.env` of the checkout is read.
const folder = mkdtempSync(join(tmpdir(), 'db-commands-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `node scripts/<script> …args` as `npm run` does, with only the given environment. */
function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(SCRIPTS, script), ...args],
      { cwd: folder, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

function tablesOf(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => String(row.name));
  } finally {
    db.close();
  }
}

describe('npm run db:migrate', () => {
  it('applies every migration to a new SQLite database, then finds it up to date', async () => {
    const env = { DATABASE_URL: 'sqlite:./migrated.db' };
    const first = await run('db-migrate.ts', [], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`applied ${MIGRATIONS.length} migration(s) on sqlite`);
    expect(tablesOf(join(folder, 'migrated.db'))).toContain('leads');
    expect(await run('db-migrate.ts', [], env)).toMatchObject({
      code: 0,
      stdout: 'the sqlite database is up to date\n',
    });
  });

  it.skipIf(!hasPostgres)('migrates a PostgreSQL schema', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const result = await run('db-migrate.ts', [], { DATABASE_URL: database.url });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`applied ${MIGRATIONS.length} migration(s) on postgres`);
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM kysely_migration`.execute(
        database.handle.db,
      );
      expect(rows).toEqual([{ n: MIGRATIONS.length }]);
    } finally {
      await database.dispose();
    }
  });

  it("runs with the image's environment and DATABASE_URL alone (no service's settings are needed)", async () => {
    // NODE_ENV=production makes the server require CAPTCHA_SECRET; a migration job has no use for it.
    const env = { NODE_ENV: 'production', DATABASE_URL: 'sqlite:./production.db' };
    expect(await run('db-migrate.ts', [], env)).toMatchObject({ code: 0, stderr: '' });
    expect(await run('db-backup.ts', ['production-copy.db'], env)).toMatchObject({ code: 0, stderr: '' });
    expect(tablesOf(join(folder, 'production-copy.db'))).toContain('leads');
  });

  it('refuses an invalid DATABASE_URL in one line', async () => {
    expect(await run('db-migrate.ts', [], { DATABASE_URL: 'mysql://x' })).toMatchObject({
      code: 1,
      stderr:
        'Configuration error: DATABASE_URL must be sqlite:<path>, sqlite::memory: or a valid postgres:// URL\n',
    });
  });

  it('exits 1 with one line when the database cannot be reached', async () => {
    const result = await run('db-migrate.ts', [], { DATABASE_URL: 'postgres://app:secret@127.0.0.1:1/app' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Migration failed: .*ECONNREFUSED.*\n$/);
    expect(result.stderr).not.toContain('secret');
  });
});

describe('npm run db:backup -- FILE', () => {
  it('writes a consistent copy of the SQLite database that opens on its own', async () => {
    const env = { DATABASE_URL: 'sqlite:./live.db' };
    expect((await run('db-migrate.ts', [], env)).code).toBe(0);
    const result = await run('db-backup.ts', ['copy.db'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`to ${join(folder, 'copy.db')}`);
    expect(tablesOf(join(folder, 'copy.db'))).toEqual(tablesOf(join(folder, 'live.db')));
  });

  it('refuses an existing file and says so', async () => {
    const env = { DATABASE_URL: 'sqlite:./refused.db' };
    expect((await run('db-migrate.ts', [], env)).code).toBe(0);
    expect((await run('db-backup.ts', ['twice.db'], env)).code).toBe(0);
    expect(await run('db-backup.ts', ['twice.db'], env)).toMatchObject({
      code: 1,
      stderr: `Backup failed: ${join(folder, 'twice.db')} exists: name a new file\n`,
    });
  });

  it('on PostgreSQL, names pg_dump and writes nothing', async () => {
    const result = await run('db-backup.ts', ['pg.dump'], {
      DATABASE_URL: 'postgres://app:secret@127.0.0.1:1/app',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pg_dump --format=custom --file="pg.dump" "$DATABASE_URL"');
    expect(result.stderr).not.toContain('secret');
    expect(existsSync(join(folder, 'pg.dump'))).toBe(false);
  });

  it('without a file name, prints its usage and exits 2', async () => {
    const result = await run('db-backup.ts', [], { DATABASE_URL: 'sqlite:./live.db' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('usage: npm run db:backup -- FILE');
  });
});
