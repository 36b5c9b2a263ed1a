import type { Kysely } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * Classification you can check and reverse: the classifier's score and reasons kept on leads and
 * support messages (null for rows stored before), the support message's language (for a decline
 * e-mail sent after a correction; rows stored before read as English), and every correction an admin
 * made (`classification_corrections`: when, from what to what, what it started and stopped).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const real = engineOf(db) === 'postgres' ? 'double precision' : 'real';
  for (const table of ['leads', 'support_messages']) {
    await db.schema.alterTable(table).addColumn('classification_score', real).execute();
    await db.schema.alterTable(table).addColumn('classification_reasons', 'text').execute();
  }
  await db.schema
    .alterTable('support_messages')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();

  await db.schema
    .createTable('classification_corrections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('from_classification', 'text', (c) => c.notNull())
    .addColumn('to_classification', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('effects', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('classification_corrections_record_idx')
    .on('classification_corrections')
    .columns(['source', 'record_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('classification_corrections').ifExists().execute();
  await db.schema.alterTable('support_messages').dropColumn('language').execute();
  for (const table of ['leads', 'support_messages']) {
    await db.schema.alterTable(table).dropColumn('classification_reasons').execute();
    await db.schema.alterTable(table).dropColumn('classification_score').execute();
  }
}
