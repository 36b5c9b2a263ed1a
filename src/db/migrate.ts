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
  // On PostgreSQL, name the schema: without it Kysely's "does the migration table exist" check looks
  // at every schema of the database, and a kysely_migration table in another schema (another test
  // file's, another app's) makes it skip creating this schema's own.
  const migrationTableSchema =
    engineOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_FOLDER }),
    migrationTableSchema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}
