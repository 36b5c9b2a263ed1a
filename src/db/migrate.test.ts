import { describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable } from '../../test/support/database.ts';
import { migrateToLatest } from './migrate.ts';

const hasPostgres = await postgresAvailable();

describe.skipIf(!hasPostgres)('migrations on a PostgreSQL server shared by several schemas', () => {
  it("migrates a schema while another schema already holds Kysely's migration tables", async () => {
    const first = await createTestDatabase('postgres');
    const second = await createTestDatabase('postgres');
    try {
      await migrateToLatest(first.handle.db);
      await expect(migrateToLatest(second.handle.db)).resolves.toBeUndefined();
      await expect(migrateToLatest(second.handle.db)).resolves.toBeUndefined();
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });
});
