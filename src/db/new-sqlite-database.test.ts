import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.ts';
import { openDatabase } from './database.ts';
import { latestMigrationName, migrateToLatest } from './migrate.ts';
import { MIGRATIONS } from './migration-list.ts';
import {
  createNewSqliteDatabase,
  dumpSqliteDatabase,
  markPerDatabaseSecrets,
  NEW_SQLITE_DATABASE,
  RANDOM_SECRET_SQL,
} from './new-sqlite-database.ts';

const SECRET = /^[0-9a-f]{64}$/;
const MIGRATION_NAMES = Object.keys(MIGRATIONS).sort();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function settings(db: Parameters<typeof dumpSqliteDatabase>[0]) {
  const { rows } = await sql<{ name: string; value: string }>`
    select name, value from lead_settings union all select name, value from service_settings order by name`.execute(
    db,
  );
  return rows;
}

describe('a new SQLite database gets the migrations’ end schema in one transaction', () => {
  it('the snapshot holds every migration, up to the last (else: npm run db:schema)', () => {
    expect(NEW_SQLITE_DATABASE.migrations).toEqual(Object.keys(MIGRATIONS).sort());
    expect(NEW_SQLITE_DATABASE.migrations.at(-1)).toBe(latestMigrationName());
  });

  it('builds what replaying the migrations builds: schema, rows, and Kysely’s record (else: npm run db:schema)', async () => {
    const replayed = await createTestDatabase('sqlite');
    const loaded = await createTestDatabase('sqlite');
    try {
      await expect(migrateToLatest(replayed.handle.db, { replay: true })).resolves.toEqual(
        NEW_SQLITE_DATABASE.migrations,
      );
      await expect(migrateToLatest(loaded.handle.db)).resolves.toEqual(NEW_SQLITE_DATABASE.migrations);
      const a = await dumpSqliteDatabase(replayed.handle.db);
      const b = await dumpSqliteDatabase(loaded.handle.db);
      expect(b.migrations).toEqual(a.migrations);
      expect(markPerDatabaseSecrets(b.statements, a.statements)).toEqual(NEW_SQLITE_DATABASE.statements);
      // The migrator finds everything applied, and its lock row where it expects it.
      await expect(migrateToLatest(loaded.handle.db)).resolves.toEqual([]);
    } finally {
      await replayed.dispose();
      await loaded.dispose();
    }
  });

  it('draws new secrets for each database, from node:crypto, never the snapshot’s', async () => {
    expect(NEW_SQLITE_DATABASE.statements.filter((s) => s.includes(RANDOM_SECRET_SQL))).toHaveLength(2);
    const first = await createTestDatabase('sqlite');
    const second = await createTestDatabase('sqlite');
    try {
      await migrateToLatest(first.handle.db);
      await migrateToLatest(second.handle.db);
      const [a, b] = [await settings(first.handle.db), await settings(second.handle.db)];
      expect(a.map((r) => r.name)).toEqual(['bucket_salt', 'rate_limit_key_secret']);
      for (const row of [...a, ...b]) expect(row.value).toMatch(SECRET);
      expect(new Set([...a, ...b].map((r) => r.value)).size).toBe(4);
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });

  it('leaves a database that holds a table to the migrator, and replays when the snapshot’s migrations are not the code’s', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      await sql`create table unrelated (id integer)`.execute(database.handle.db);
      await expect(createNewSqliteDatabase(database.handle.db, MIGRATION_NAMES)).resolves.toBeNull();
      const behind = { ...NEW_SQLITE_DATABASE, migrations: NEW_SQLITE_DATABASE.migrations.slice(0, -1) };
      const missingOne = { ...NEW_SQLITE_DATABASE, migrations: NEW_SQLITE_DATABASE.migrations.slice(1) };
      const empty = await createTestDatabase('sqlite');
      try {
        for (const stale of [behind, missingOne]) {
          await expect(createNewSqliteDatabase(empty.handle.db, MIGRATION_NAMES, stale)).resolves.toBeNull();
        }
        const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(
          empty.handle.db,
        );
        expect(rows[0]?.n).toBe(0);
      } finally {
        await empty.dispose();
      }
    } finally {
      await database.dispose();
    }
  });

  it('of two processes opening one new file together, one creates the schema and the other finds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'new-sqlite-'));
    dirs.push(dir);
    const url = `sqlite:${join(dir, 'db.sqlite')}`;
    // Each process migrates and prints how many migrations it applied.
    const script = `
      const { openDatabase } = await import(${JSON.stringify(new URL('./database.ts', import.meta.url).href)});
      const { migrateToLatest } = await import(${JSON.stringify(new URL('./migrate.ts', import.meta.url).href)});
      const database = openDatabase(${JSON.stringify(url)});
      console.log((await migrateToLatest(database.db)).length);
      await database.close();`;
    const run = () =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
          error ? reject(error) : resolve(stdout.trim()),
        ),
      );
    const applied = await Promise.all([run(), run()]);
    expect(applied.map(Number).sort((a, b) => a - b)).toEqual([0, NEW_SQLITE_DATABASE.migrations.length]);
    const database = openDatabase(url);
    try {
      await expect(migrateToLatest(database.db)).resolves.toEqual([]);
      expect(await settings(database.db)).toHaveLength(2);
    } finally {
      await database.close();
    }
  });

  it('rolls back a failed creation: the database stays empty and the error surfaces', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const broken = { ...NEW_SQLITE_DATABASE, statements: [...NEW_SQLITE_DATABASE.statements, 'not sql'] };
      await expect(createNewSqliteDatabase(database.handle.db, MIGRATION_NAMES, broken)).rejects.toThrow();
      const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(
        database.handle.db,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await database.dispose();
    }
  });
});
