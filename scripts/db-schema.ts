/**
 * `npm run db:schema`: writes src/db/new-sqlite-database.json, the schema and rows the migrations
 * leave in a new SQLite database, which a new database then gets in one transaction instead of
 * replaying them (src/db/new-sqlite-database.ts). Run it after adding a migration; the tests fail
 * until it is run.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import {
  dumpSqliteDatabase,
  markPerDatabaseSecrets,
  type SqliteDatabaseSnapshot,
} from '../src/db/new-sqlite-database.ts';

const ROOT = join(import.meta.dirname, '..');
const FILE = join(ROOT, 'src/db/new-sqlite-database.json');

/** What the migrations leave in a new SQLite database, replayed one by one. */
async function replay(): Promise<SqliteDatabaseSnapshot> {
  const database = openDatabase('sqlite::memory:');
  try {
    await migrateToLatest(database.db, { replay: true });
    return await dumpSqliteDatabase(database.db);
  } finally {
    await database.close();
  }
}

// Two replays: what differs between them was drawn at random for each database (secrets).
const [first, second] = [await replay(), await replay()];
const snapshot = {
  migrations: first.migrations,
  statements: markPerDatabaseSecrets(first.statements, second.statements),
};
writeFileSync(FILE, `${JSON.stringify(snapshot, null, 2)}\n`);
// The project's formatter has the last word on the file's layout (biome check runs in CI).
spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', FILE], { stdio: 'inherit' });
console.log(
  `wrote ${FILE}: ${snapshot.migrations.length} migrations, ${snapshot.statements.length} statements`,
);
