/**
 * `npm run db:backup -- FILE`: an online backup of the configured SQLite database (DATABASE_URL, `.env`
 * read too) into FILE, taken while the service runs (src/db/backup.ts). PostgreSQL is backed up with
 * its own tool, pg_dump: this command says so and exits 1 without writing anything.
 */
import { resolve } from 'node:path';
import { loadDatabaseUrlOrExit } from '../src/config.ts';
import { backupSqlite } from '../src/db/backup.ts';
import { sqliteFileOf } from '../src/db/database.ts';

const target = process.argv[2];
if (!target || target === '--help' || target === '-h') {
  console.error('usage: npm run db:backup -- FILE   (an SQLite backup; FILE must not exist)');
  process.exit(target ? 0 : 2);
}

const databaseUrl = loadDatabaseUrlOrExit();
if (!databaseUrl.startsWith('sqlite:')) {
  console.error(
    [
      'DATABASE_URL is a PostgreSQL database: back it up with pg_dump (see the README, Operations), e.g.',
      `  pg_dump --format=custom --file=${JSON.stringify(target)} "$DATABASE_URL"`,
    ].join('\n'),
  );
  process.exit(1);
}
const source = sqliteFileOf(databaseUrl);
if (!source) {
  console.error('DATABASE_URL is sqlite::memory:, which holds nothing to back up');
  process.exit(1);
}
try {
  const { pages } = await backupSqlite(source, resolve(target));
  console.log(`backed up ${source} to ${resolve(target)} (${pages} pages, integrity checked)`);
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
