/**
 * A table's columns, declared once: each column's SQL type and nullability as the migrations create
 * them, and the TypeScript type Kysely gives it. `RowOf` derives the row type that goes into
 * `Database` (schema.ts); test/schema.test.ts migrates SQLite and PostgreSQL and checks every table
 * the migrations make against its declaration, so the two cannot disagree.
 *
 *   export const contactTable = table({ id: text(), note: text().orNull(), created_at: bigint() });
 *   declare module '../../db/schema.ts' { interface Database { contact: RowOf<typeof contactTable> } }
 */

/**
 * The column types the migrations use: `bytes` is BLOB on SQLite, BYTEA on PostgreSQL; `real` is a
 * double (REAL on SQLite, DOUBLE PRECISION on PostgreSQL).
 */
export type SqlType = 'text' | 'integer' | 'bigint' | 'real' | 'bytes';

export interface Column<T> {
  readonly sql: SqlType;
  readonly nullable: boolean;
  /** Only carries the TypeScript type: never set. */
  readonly value?: T;
}

interface NotNullColumn<T> extends Column<T> {
  /** The same column, nullable. */
  orNull(): Column<T | null>;
}

function column<T>(sql: SqlType): NotNullColumn<T> {
  return { sql, nullable: false, orNull: () => ({ sql, nullable: true }) };
}

/** TEXT; `T` narrows it to the values the code writes (a status union, JSON text…). */
export const text = <T extends string = string>() => column<T>('text');
/** INTEGER (counts, positions, 0/1 flags). */
export const integer = <T extends number = number>() => column<T>('integer');
/** BIGINT, read back as a number on both engines: epoch milliseconds, CRM ids, large counters. */
export const bigint = () => column<number>('bigint');
/** A double: REAL on SQLite, DOUBLE PRECISION on PostgreSQL (a classifier's probability). */
export const real = () => column<number>('real');
export const bytes = () => column<Uint8Array>('bytes');

export type TableSpec = Readonly<Record<string, Column<unknown>>>;

/** Declares a table's columns (the identity: it only checks the shape and keeps the literal types). */
export function table<const Spec extends TableSpec>(columns: Spec): Spec {
  return columns;
}

/** The row type of a declared table, as Kysely reads and writes it. */
export type RowOf<Spec extends TableSpec> = {
  -readonly [Name in keyof Spec]: Spec[Name] extends Column<infer T> ? T : never;
};
