/**
 * The database's tables as Kysely sees them. Each table is declared once, next to the code that
 * owns it, as a column list (`table()` in table-spec.ts: SQL type, nullability, TypeScript type)
 * whose row type (`RowOf`) is added to this interface by declaration merging
 * (`declare module '…/db/schema.ts' { interface Database { name: RowOf<typeof nameTable> } }`).
 * test/schema.test.ts migrates SQLite and PostgreSQL and compares every table with its declaration,
 * so a migration and the types cannot disagree. (Types are declared rather than generated from the
 * database with kysely-codegen: they narrow text columns to the values the code writes, and read
 * BIGINT as the numbers both engines return here.)
 *
 * Conventions: ids are UUIDs or prefixed strings; instants are epoch milliseconds in `bigint`
 * columns (read back as numbers on both engines); JSON is stored as text.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface Database {}
