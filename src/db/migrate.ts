import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator } from 'kysely/migration';
import { MIGRATIONS } from './migration-list.ts';
import { createNewSqliteDatabase } from './new-sqlite-database.ts';

/**
 * Applies every migration of db/migrations (listed in db/migration-list.ts) in name order and returns the names of those it applied
 * (none when the database was up to date). Kysely takes a lock first (an advisory lock on
 * PostgreSQL), so several instances starting together apply each migration once. A new SQLite
 * database (no table yet) gets the migrations' end schema in one transaction instead
 * (new-sqlite-database.ts); `replay` runs them one by one anyway.
 */
export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: the migrator works on any table types
  db: Kysely<any>,
  options: { replay?: boolean } = {},
): Promise<string[]> {
  if (!options.replay) {
    const created = await createNewSqliteDatabase(db, Object.keys(MIGRATIONS).sort());
    if (created) return created;
  }
  // Kysely looks for its migration tables in every schema it can see unless told which one: with
  // several schemas on one server (tests, shared servers) it would find another schema's tables and
  // skip creating its own. Pin them to the connection's current schema.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Where Kysely records the migrations it applied (in the connection's current schema). */
export const MIGRATION_TABLE = DEFAULT_MIGRATION_TABLE;

/**
 * The name Kysely records for the last migration of db/migrations (its file name without the
 * extension): once it is in MIGRATION_TABLE, all of this code's migrations are applied.
 */
export function latestMigrationName(): string {
  const latest = Object.keys(MIGRATIONS).sort().at(-1);
  if (!latest) throw new Error('no migration in db/migration-list.ts');
  return latest;
}
