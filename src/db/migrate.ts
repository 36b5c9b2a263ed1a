import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import { engineOf } from './database.ts';

const MIGRATIONS_FOLDER = path.join(import.meta.dirname, 'migrations');

/**
 * Applies every migration in db/migrations in name order. Kysely takes a lock first (an advisory
 * lock on PostgreSQL), so several instances starting together apply each migration once.
 */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any table types
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_FOLDER }),
    // Kysely looks for its bookkeeping tables in EVERY schema unless told which one; with several
    // schemas in one PostgreSQL database (tests, tenants) it then skips creating its own and fails.
    migrationTableSchema: await currentSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any table types
async function currentSchema(db: Kysely<any>): Promise<string | undefined> {
  if (engineOf(db) !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}
