import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable } from '../../test/support/database.ts';
import { latestMigrationName, migrateToLatest } from './migrate.ts';
import { MIGRATIONS } from './migration-list.ts';

const hasPostgres = await postgresAvailable();
const ALL_MIGRATIONS = (await readdir(new URL('./migrations/', import.meta.url)))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.replace(/\.ts$/, ''))
  .sort();

describe('migrateToLatest', () => {
  it('knows every migration file of the folder (db/migration-list.ts), the last one by name', () => {
    expect(Object.keys(MIGRATIONS).sort()).toEqual(ALL_MIGRATIONS);
    expect(latestMigrationName()).toBe(ALL_MIGRATIONS.at(-1));
  });

  it('returns the names of the migrations it applied, none once the database is up to date', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      expect(ALL_MIGRATIONS.length).toBeGreaterThan(0);
      await expect(migrateToLatest(database.handle.db)).resolves.toEqual(ALL_MIGRATIONS);
      await expect(migrateToLatest(database.handle.db)).resolves.toEqual([]);
    } finally {
      await database.dispose();
    }
  });
});

describe.skipIf(!hasPostgres)('migrations on a PostgreSQL server shared by several schemas', () => {
  it("migrates a schema while another schema already holds Kysely's migration tables", async () => {
    const first = await createTestDatabase('postgres');
    const second = await createTestDatabase('postgres');
    try {
      await migrateToLatest(first.handle.db);
      await expect(migrateToLatest(second.handle.db)).resolves.toEqual(ALL_MIGRATIONS);
      await expect(migrateToLatest(second.handle.db)).resolves.toEqual([]);
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });
});
