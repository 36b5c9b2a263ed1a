import type { Kysely } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * Support: contact-us requests (`support_messages`), tickets (`support_tickets`) and their attachments
 * (`support_attachments`, metadata; the bytes are in `blobs`, the shared byte store of db/blob-store.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = engineOf(db) === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('classification_reason', 'text', (c) => c.notNull())
    .addColumn('classified_by', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('subject', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('pipedrive', 'text')
    .addColumn('crm_person_id', 'bigint')
    .addColumn('crm_org_id', 'bigint')
    .addColumn('crm_deal_id', 'bigint')
    .addColumn('crm_note_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_messages_created_idx')
    .on('support_messages')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('support_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('issue_type', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('urgency', 'text', (c) => c.notNull())
    .addColumn('product_url', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_tickets_created_idx')
    .on('support_tickets')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('support_attachments')
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('support_tickets.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('blob_id', 'text', (c) => c.notNull().references('blobs.id'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('original_filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('declared_type', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('support_attachments_pk', ['ticket_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['support_attachments', 'support_tickets', 'support_messages', 'blobs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
