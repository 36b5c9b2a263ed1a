import type { Kysely } from 'kysely';

/**
 * Personal data (docs/privacy.md): the audit log of erasures and retention sweeps (a keyed hash
 * stands for the address, never the address), the CRM erasures still to be carried out (the address
 * kept only until the CRM confirmed), and the chat session a lead came from, so erasing the lead
 * erases that conversation too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('privacy_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('email_hash', 'text')
    .addColumn('kind', 'text')
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('crm_status', 'text')
    .addColumn('crm_detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('privacy_audit_created_idx')
    .on('privacy_audit')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.createIndex('privacy_audit_hash_idx').on('privacy_audit').column('email_hash').execute();

  await db.schema
    .createTable('privacy_crm_erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('known', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('result', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('leads').addColumn('chat_session_id', 'text').execute();
  await db.schema.createIndex('leads_chat_session_idx').on('leads').column('chat_session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('leads_chat_session_idx').ifExists().execute();
  await db.schema.alterTable('leads').dropColumn('chat_session_id').execute();
  await db.schema.dropTable('privacy_crm_erasures').ifExists().execute();
  await db.schema.dropTable('privacy_audit').ifExists().execute();
}
