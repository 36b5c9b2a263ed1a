import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  adminCall,
  createPersonEverywhere,
  drainSideEffects,
  newPerson,
  PRIVACY_ENV,
  served,
} from '../../../test/support/features/privacy.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import type { FeatureModule } from '../contract.ts';
import { FEATURES } from '../index.ts';

/**
 * An erasure that fails half-way leaves everything in place: a feature whose part fails after every
 * other part has deleted its rows (it is built last) makes the request fail, and every table, blob
 * and job is as it was. Then the same request, the failure gone, erases it all.
 */
let failErasure = true;
const failingFeature: FeatureModule = {
  name: 'failing-for-test',
  build: () => ({
    personalData: [
      {
        name: 'failing-for-test',
        find: async () => {},
        export: async () => ({}),
        erase: async () => {
          if (failErasure) throw new Error('the disk is on fire');
          return {};
        },
      },
    ],
  }),
};

// biome-ignore lint/suspicious/noExplicitAny: the catalogue is read whatever the table types
async function rowCounts(db: Kysely<any>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'leads',
    'prototype_attempts',
    'prototype_events',
    'prototype_quota_counters',
    'prototype_quota_holds',
    'chat_messages',
    'contact_submissions',
    'support_messages',
    'support_tickets',
    'support_attachments',
    'blobs',
    'mail_outbox',
    'jobs',
    'privacy_audit',
    'privacy_crm_erasures',
  ]) {
    const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(row.rows[0]?.n);
  }
  return counts;
}

const engines = await testEngines();

describe.each(engines)('an erasure failing half-way on %s', { timeout: 60_000 }, (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const ana = newPerson('Ana');

  beforeAll(async () => {
    failErasure = true;
    server = await startTestServer({ engine, env: PRIVACY_ENV, modules: [...FEATURES, failingFeature] });
    await createPersonEverywhere(served(server.url), ana);
    await drainSideEffects(server);
  });
  afterAll(() => server?.close());

  it('leaves every row, file and job in place; the retry erases it all', async () => {
    const app = served(server.url);
    const before = await rowCounts(server.deps.db);
    expect(before.blobs).toBe(1);
    expect(before.leads).toBe(1);
    const exported = await (
      await adminCall(app, 'GET', `/admin/api/personal-data?email=${ana.email}`)
    ).json();

    const failed = await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${ana.email}&crm=true`);
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    expect(await rowCounts(server.deps.db)).toEqual(before);
    const again = await (await adminCall(app, 'GET', `/admin/api/personal-data?email=${ana.email}`)).json();
    expect({ ...again, exportedAt: null }).toEqual({ ...exported, exportedAt: null });

    failErasure = false;
    const erased = await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${ana.email}`);
    expect(erased.status).toBe(200);
    const after = await rowCounts(server.deps.db);
    expect(after).toMatchObject({
      leads: 0,
      blobs: 0,
      support_attachments: 0,
      chat_messages: 0,
      privacy_audit: 1,
    });
  });
});
