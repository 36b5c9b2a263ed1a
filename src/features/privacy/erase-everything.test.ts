import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  adminCall,
  createPersonEverywhere,
  drainSideEffects,
  newPerson,
  type Person,
  PRIVACY_ENV,
  served,
} from '../../../test/support/features/privacy.ts';
import { type PipedriveStandIn, startPipedriveStandIn } from '../../../test/support/pipedrive-stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import type { Engine } from '../../db/database.ts';
import { crmErasureKey } from './crm-erasure.ts';
import { CRM_ERASURE } from './limits.ts';

/**
 * The erasure's promise, checked from the outside: one person is written into every feature through
 * the public routes, erased with one request, then every table the database itself lists (not a
 * hand-kept list: a table added tomorrow is dumped too) is read whole, bytes and all, and neither the
 * address, nor the name, nor the random tag both carry appears anywhere. A second person written the
 * same way must still be found by the same search (so the search can fail).
 */

// biome-ignore lint/suspicious/noExplicitAny: the catalogue is read whatever the table types
async function tableNames(engine: Engine, db: Kysely<any>): Promise<string[]> {
  const rows =
    engine === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Every value of every row of every table as lower-cased text (bytes read as UTF-8 and Latin-1). */
// biome-ignore lint/suspicious/noExplicitAny: the catalogue is read whatever the table types
async function dump(engine: Engine, db: Kysely<any>): Promise<Map<string, string>> {
  const text = new Map<string, string>();
  for (const name of await tableNames(engine, db)) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const values = rows.rows.flatMap((row) =>
      Object.values(row).map((v) => {
        if (v instanceof Uint8Array)
          return `${Buffer.from(v).toString('utf8')} ${Buffer.from(v).toString('latin1')}`;
        return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
      }),
    );
    text.set(name, values.join('\n').toLowerCase());
  }
  return text;
}

function tablesHolding(tables: Map<string, string>, needle: string): string[] {
  return [...tables].filter(([, text]) => text.includes(needle.toLowerCase())).map(([name]) => name);
}

const tagOf = (person: Person) => person.email.split('@')[0]!.split('.')[1]!;

const engines = await testEngines();

describe.each(engines)('erasing one person on %s', { timeout: 60_000 }, (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let pipedrive: PipedriveStandIn;
  const ana = newPerson('Ana');
  const bea = newPerson('Bea');

  beforeAll(async () => {
    pipedrive = await startPipedriveStandIn();
    server = await startTestServer({
      engine,
      overrides: { backoffBaseMs: 1 },
      env: { ...PRIVACY_ENV, PIPEDRIVE_API_TOKEN: pipedrive.token, PIPEDRIVE_API_URL: pipedrive.url },
    });
    for (const person of [ana, bea]) await createPersonEverywhere(served(server.url), person);
    await drainSideEffects(server);
  });
  afterAll(async () => {
    await server?.close();
    await pipedrive?.close();
  });

  it('leaves neither the address nor the name in any table, blob or the CRM', async () => {
    const db = server.deps.db;
    const before = await dump(engine, db);
    // Where the person was: every feature that keeps personal data (the dump can find them).
    expect(tablesHolding(before, ana.email).sort()).toEqual(
      expect.arrayContaining([
        'leads',
        'chat_messages',
        'contact_submissions',
        'support_messages',
        'support_tickets',
        'blobs',
        'mail_outbox',
        'jobs',
      ]),
    );
    expect(tablesHolding(before, tagOf(ana))).toContain('prototype_attempts');
    expect(pipedrive.persons.some((p) => p.email === ana.email)).toBe(true);
    const blobsBefore = await db.selectFrom('blobs').select('id').execute();

    const res = await adminCall(
      served(server.url),
      'DELETE',
      `/admin/api/personal-data?email=${encodeURIComponent(` ${ana.email.toUpperCase()} `)}&crm=true`,
    );
    expect(res.status).toBe(200);
    const answer = (await res.json()) as {
      auditId: string;
      counts: Record<string, number>;
      crm: { status: string };
    };
    expect(answer.crm.status).toBe('erased');
    expect(answer.counts).toMatchObject({
      leads: 1,
      contactMessages: 1,
      supportMessages: 1,
      tickets: 1,
      ticketFiles: 1,
      quotaCounters: 1,
    });
    for (const kind of ['prototypeAttempts', 'chatMessages', 'emails', 'queuedJobs']) {
      expect(answer.counts[kind], kind).toBeGreaterThan(0);
    }

    // Until the queue's final sweep the address is kept for it (and only there).
    expect(tablesHolding(await dump(engine, db), ana.email)).toEqual(['privacy_crm_erasures']);
    // A CRM sync already running when the erasure committed creates the person after the first
    // search; the sweep, due CRM_ERASURE.safetyNetDelayMs later (made due now), finds it.
    const maxId = Math.max(0, ...pipedrive.persons.map((p) => p.id));
    pipedrive.persons.push({ id: maxId + 1, name: ana.name, email: ana.email, org_id: null });
    await server.deps.jobs.expedite(CRM_ERASURE.queue, crmErasureKey(answer.auditId));
    expect(await server.deps.worker.drain(CRM_ERASURE.queue)).toBe(1);
    expect(pipedrive.persons.some((p) => p.email === ana.email)).toBe(false);

    const after = await dump(engine, db);
    for (const needle of [ana.email, ana.name, tagOf(ana)]) {
      expect(tablesHolding(after, needle), `tables still holding ${needle}`).toEqual([]);
    }
    // The other person is untouched, and the same search finds them.
    for (const needle of [bea.email, bea.name])
      expect(tablesHolding(after, needle).length).toBeGreaterThan(3);
    expect(await db.selectFrom('blobs').select('id').execute()).toHaveLength(blobsBefore.length - 1);

    // The CRM: no person, deal or note of Ana's left; Bea's still there.
    const crm = JSON.stringify([pipedrive.persons, pipedrive.deals, pipedrive.notes]).toLowerCase();
    expect(crm).not.toContain(tagOf(ana));
    expect(crm).toContain(tagOf(bea));
    expect(pipedrive.calls()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^DELETE \/api\/v2\/persons\/\d+$/)]),
    );

    // Nothing is left to export; the audit entry holds a hash, not the address.
    const gone = await adminCall(served(server.url), 'GET', `/admin/api/personal-data?email=${ana.email}`);
    expect(gone.status).toBe(404);
    const audit = await db.selectFrom('privacy_audit').selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.email_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(audit[0]?.crm_status).toBe('erased');
  });
});
