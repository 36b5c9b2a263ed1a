import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Rate-limit windows were keyed by the client IP itself (`contact:203.0.113.7`). They are keyed by a
 * keyed hash of it from now on (db/rate-limiter.ts), with a secret every instance reads here; the
 * windows written before are dropped (the longest lasts an hour: counting restarts once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  const typed = db as Kysely<{ service_settings: { name: string; value: string }; rate_limits: object }>;
  await typed
    .insertInto('service_settings')
    .values({ name: 'rate_limit_key_secret', value: randomBytes(32).toString('hex') })
    .execute();
  await typed.deleteFrom('rate_limits').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_settings').ifExists().execute();
}
