import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Leads, the monthly prototype quota, and the mail outbox (every message the service sends or keeps).
 * `lead_settings` holds this installation's random salt for hashing visitor IPs and e-mails into quota
 * bucket keys (raw IPs are never stored).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('classification_reason', 'text', (c) => c.notNull())
    .addColumn('classified_by', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('company', 'text')
    .addColumn('position', 'text')
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('prototype_kind', 'text')
    .addColumn('client_ip_hash', 'text')
    .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pipedrive', 'text')
    .addColumn('crm_person_id', 'bigint')
    .addColumn('crm_org_id', 'bigint')
    .addColumn('crm_deal_id', 'bigint')
    .addColumn('crm_note_id', 'bigint')
    .addColumn('submission_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The spec's `leadByEmail:` index: e-mails are stored trimmed and lower-cased.
  await db.schema.createIndex('leads_email_idx').on('leads').columns(['email', 'created_at']).execute();
  await db.schema.createIndex('leads_created_idx').on('leads').columns(['created_at', 'id']).execute();
  // Duplicate submissions (a double-click) collide here; see submissionKey in features/leads/submit.ts.
  await db.schema.createIndex('leads_submission_idx').on('leads').column('submission_key').unique().execute();

  await db.schema
    .createTable('prototype_quota_counters')
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('prototype_quota_counters_pk', ['month', 'kind', 'bucket'])
    .execute();
  await db.schema
    .createTable('prototype_quota_holds')
    .addColumn('lead_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('in_progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('prototype_quota_holds_pk', ['lead_id', 'month', 'bucket'])
    .execute();
  await db.schema
    .createIndex('prototype_quota_holds_bucket_idx')
    .on('prototype_quota_holds')
    .columns(['month', 'bucket'])
    .execute();

  await db.schema
    .createTable('lead_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ lead_settings: { name: string; value: string } }>)
    .insertInto('lead_settings')
    .values({ name: 'bucket_salt', value: randomBytes(32).toString('hex') })
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('cc_addresses', 'text', (c) => c.notNull())
    .addColumn('bcc_addresses', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('message_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'mail_outbox',
    'lead_settings',
    'prototype_quota_holds',
    'prototype_quota_counters',
    'leads',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
