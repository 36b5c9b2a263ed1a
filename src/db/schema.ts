/**
 * The database's tables as Kysely sees them. Each feature adds its own tables to this interface
 * with declaration merging (`declare module '../../db/schema.ts' { interface Database { … } }`)
 * next to its migration, so no single file lists every feature's columns.
 *
 * Conventions: ids are UUIDs or prefixed strings; instants are epoch milliseconds in `bigint`
 * columns (read back as numbers on both engines); JSON is stored as text.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface Database {}
