import type { Kysely } from 'kysely';

/**
 * The contact form's messages are judged as support's contact-us requests are (docs/analytics.md,
 * Contact): what became of each (`status`: `new`, `spam`, `vendor`) and why. Messages stored before
 * were never judged: `new`, with no classification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('contact_submissions')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
    .execute();
  for (const column of ['classification', 'classification_reason', 'classified_by']) {
    await db.schema.alterTable('contact_submissions').addColumn(column, 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['classified_by', 'classification_reason', 'classification', 'status']) {
    await db.schema.alterTable('contact_submissions').dropColumn(column).execute();
  }
}
