import type { Kysely } from 'kysely';

/**
 * A job remembers the trace of the request (or job) that enqueued it (`traceparent`), so that its run,
 * its log lines and the outside services it calls (mail, CRM) belong to that request's trace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('trace_parent', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('trace_parent').execute();
}
