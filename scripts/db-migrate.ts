/**
 * `npm run db:migrate`: applies the pending migrations to the configured database (DATABASE_URL, `.env`
 * read too) and exits: 0 when the database is up to date, 1 when a migration failed or the database
 * could not be reached. For a deploy that migrates before rolling out; instances still migrate at
 * start-up (under the same lock), and then find nothing to do.
 */
import { loadDatabaseUrlOrExit } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const databaseUrl = loadDatabaseUrlOrExit();
const database = openDatabase(databaseUrl, { poolSize: 1 });
try {
  const applied = await migrateToLatest(database.db);
  console.log(
    applied.length > 0
      ? `applied ${applied.length} migration(s) on ${database.engine}: ${applied.join(', ')}`
      : `the ${database.engine} database is up to date`,
  );
} catch (error) {
  const reason = error instanceof Error ? error.message || error.name : String(error);
  console.error(`Migration failed: ${reason.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
