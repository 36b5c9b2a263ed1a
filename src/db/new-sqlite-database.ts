import { randomBytes } from 'node:crypto';
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE } from 'kysely/migration';
import snapshot from './new-sqlite-database.json' with { type: 'json' };

/**
 * A new SQLite database gets the schema the migrations end with in one transaction, instead of
 * replaying every migration (as Rails loads `schema.rb` into a new database rather than running its
 * whole history). Replaying them costs most of a first start: Kysely builds and compiles ~200
 * statements with its query builder still cold, ~50 ms; the statements themselves take ~5 ms.
 *
 * The snapshot (new-sqlite-database.json) is what `dumpSqliteDatabase` reads from a database the
 * migrations built: its tables, indexes and triggers as SQLite recorded them (`sqlite_master.sql`),
 * then the rows the migrations inserted (settings, Kysely's lock row). A value a migration draws at
 * random for each database (a salt, a key: 32 random bytes in hex) is no literal in the snapshot but
 * RANDOM_SECRET_SQL, which this module fills with new random bytes for each database. `npm run
 * db:schema` writes the snapshot; new-sqlite-database.test.ts holds it equal to a replay and to the
 * list of migrations, so a new migration without a new snapshot fails the tests, and until it is
 * written a new database replays the migrations (the snapshot's list must be the code's). An existing
 * database, even one with only part of the migrations, always goes through the migrator.
 */
export interface SqliteDatabaseSnapshot {
  /** The migrations the snapshot holds, in order; Kysely's table records them as applied. */
  migrations: string[];
  /** CREATE statements, then INSERTs of the rows the migrations left. */
  statements: string[];
}

export const NEW_SQLITE_DATABASE: SqliteDatabaseSnapshot = snapshot;

/**
 * Creates the schema of `snapshot` in `db` when it is SQLite, holds no table yet and `migrations` (the
 * code's, in order) are the snapshot's, and returns them as recorded applied; null (nothing done)
 * otherwise. `BEGIN IMMEDIATE` takes SQLite's
 * write lock before looking, so of two processes opening the same new file, one creates the schema
 * and the other finds it there (and its migrator then finds nothing to do).
 */
export async function createNewSqliteDatabase(
  // biome-ignore lint/suspicious/noExplicitAny: works on any table types, as the migrator
  db: Kysely<any>,
  migrations: readonly string[],
  snapshot: SqliteDatabaseSnapshot = NEW_SQLITE_DATABASE,
): Promise<string[] | null> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return null;
  if (snapshot.migrations.join('\n') !== migrations.join('\n')) return null;
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(connection);
      if (Number(rows[0]?.n) > 0) {
        await sql`rollback`.execute(connection);
        return null;
      }
      for (const statement of snapshot.statements) await withNewSecrets(statement).execute(connection);
      const appliedAt = new Date().toISOString();
      for (const name of snapshot.migrations) {
        await sql`insert into ${sql.table(DEFAULT_MIGRATION_TABLE)} (name, timestamp) values (${name}, ${appliedAt})`.execute(
          connection,
        );
      }
      await sql`commit`.execute(connection);
      return [...snapshot.migrations];
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
  });
}

/**
 * Stands in the snapshot for a value drawn at random for each database: 32 random bytes in hex, as
 * the migrations draw them (`randomBytes(32).toString('hex')`). Filled from node:crypto, not by SQLite.
 */
export const RANDOM_SECRET_SQL = 'lower(hex(randomblob(32)))';
const RANDOM_SECRET = /'[0-9a-f]{64}'/g;

/**
 * The statements of two dumps of databases the migrations built, with every literal that differs
 * between them (a per-database secret) turned into RANDOM_SECRET_SQL. Throws on any other difference:
 * a migration that leaves something else differing per database needs this module to know of it.
 */
export function markPerDatabaseSecrets(first: string[], second: string[]): string[] {
  if (first.length !== second.length)
    throw new Error('two replays of the migrations left different statements');
  return first.map((statement, i) => {
    if (statement === second[i]) return statement;
    const marked = statement.replace(RANDOM_SECRET, RANDOM_SECRET_SQL);
    if (marked !== second[i]!.replace(RANDOM_SECRET, RANDOM_SECRET_SQL)) {
      throw new Error(
        `a migration leaves a value that differs per database and is no 32-byte hex secret: ${statement}`,
      );
    }
    return marked;
  });
}

/** A snapshot statement with its RANDOM_SECRET_SQL places bound to new random secrets. */
function withNewSecrets(statement: string) {
  const parts = statement.split(RANDOM_SECRET_SQL);
  if (parts.length === 1) return sql.raw(statement);
  return sql.join(
    parts.flatMap((part, i) =>
      i === 0 ? [sql.raw(part)] : [sql`${randomBytes(32).toString('hex')}`, sql.raw(part)],
    ),
    sql.raw(''),
  );
}

/** Kysely's record of applied migrations: its rows carry the time they were applied, written anew. */
const NOT_DUMPED = new Set([DEFAULT_MIGRATION_TABLE]);

/**
 * The statements that rebuild `db` (SQLite) as it is: tables (in the order SQLite created them), then
 * indexes, triggers and views, then every row of every table except Kysely's migration record (rows
 * in the order of their values: a WITHOUT ROWID table has no other). SQLite's
 * internal tables and the tables a virtual table keeps for itself (FTS5's shadow tables) are left out:
 * creating the virtual table creates them.
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any table types, as the migrator
export async function dumpSqliteDatabase(db: Kysely<any>): Promise<SqliteDatabaseSnapshot> {
  const { rows: tables } = await sql<{ name: string; type: string }>`
    select name, type from pragma_table_list where schema = 'main' and name not like 'sqlite_%'`.execute(db);
  const kindOf = new Map(tables.map((t) => [t.name, t.type]));
  const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master
    where sql is not null and name not like 'sqlite_%' order by rowid`.execute(db);
  const order = ['table', 'index', 'trigger', 'view'];
  const statements = objects
    .filter((o) => !(o.type === 'table' && kindOf.get(o.name) === 'shadow'))
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
    .map((o) => o.sql);
  for (const object of objects) {
    if (object.type !== 'table' || kindOf.get(object.name) !== 'table' || NOT_DUMPED.has(object.name))
      continue;
    const { rows: columns } = await sql<{ name: string }>`
      select name from pragma_table_info(${object.name}) order by cid`.execute(db);
    const names = columns.map((c) => quoteIdentifier(c.name)).join(', ');
    const values = sql.raw(columns.map((c) => `quote(${quoteIdentifier(c.name)})`).join(` || ', ' || `));
    const { rows } = await sql<{
      v: string;
    }>`select ${values} as v from ${sql.table(object.name)} order by v`.execute(db);
    for (const row of rows)
      statements.push(`INSERT INTO ${quoteIdentifier(object.name)} (${names}) VALUES (${row.v})`);
  }
  const { rows: applied } = await sql<{ name: string }>`
    select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
  return { migrations: applied.map((r) => r.name), statements };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
