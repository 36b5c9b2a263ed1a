import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  adminCall,
  createPersonEverywhere,
  drainSideEffects,
  mentionInContact,
  newPerson,
  type Person,
  PRIVACY_ENV,
  type Requester,
  served,
} from '../../../test/support/features/privacy.ts';
import { type PipedriveStandIn, startPipedriveStandIn } from '../../../test/support/pipedrive-stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { CRM_ERASURE } from './limits.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely
type Json = Record<string, any>;

const engines = await testEngines();
const q = (email: string) => encodeURIComponent(email);

describe.each(engines)('personal data routes on %s', { timeout: 60_000 }, (engine) => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let pipedrive: PipedriveStandIn;
  let app: Requester;
  const ana = newPerson('Ana');
  // Ana's address is inside hers: `xana.…@example.com` holds `ana.…@example.com`.
  const xana: Person = { ...newPerson('Xana'), email: `x${ana.email}` };
  // Bea's contact message names Ana's address: the team's e-mail about it is Bea's.
  const bea = newPerson('Bea');
  const ids: Record<string, Awaited<ReturnType<typeof createPersonEverywhere>>> = {};

  beforeAll(async () => {
    pipedrive = await startPipedriveStandIn();
    server = await startTestServer({
      engine,
      overrides: { backoffBaseMs: 1 },
      env: { ...PRIVACY_ENV, PIPEDRIVE_API_TOKEN: pipedrive.token, PIPEDRIVE_API_URL: pipedrive.url },
    });
    app = served(server.url);
    ids.ana = await createPersonEverywhere(app, ana);
    ids.xana = await createPersonEverywhere(app, xana);
    await mentionInContact(app, bea, ana);
    await drainSideEffects(server);
  });
  afterAll(async () => {
    await server?.close();
    await pipedrive?.close();
  });

  const exportOf = async (email: string) => {
    const res = await adminCall(app, 'GET', `/admin/api/personal-data?email=${q(email)}`);
    return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
  };

  it('every route needs the admin key', async () => {
    const paths: ['GET' | 'DELETE', string][] = [
      ['GET', `/admin/api/personal-data?email=${q(ana.email)}`],
      ['DELETE', `/admin/api/personal-data?email=${q(ana.email)}`],
      ['GET', '/admin/api/privacy'],
      ['GET', '/admin/api/privacy/audit'],
      ['GET', `/admin/api/support/tickets/${ids.ana?.ticketId}/files/1`],
    ];
    for (const [method, path] of paths) {
      for (const key of ['', 'wrong-key', PRIVACY_ENV.CHAT_API_SECRET]) {
        const res = await adminCall(app, method, path, key);
        expect(res.status, `${method} ${path} with "${key}"`).toBe(401);
        expect(((await res.json()) as Json).error.code).toBe('UNAUTHORIZED');
      }
    }
    expect((await exportOf(ana.email)).status).toBe(200);
  });

  it('a malformed address is 400 VALIDATION_ERROR, and nothing is erased', async () => {
    for (const bad of [
      'not-an-address',
      '',
      'ana@',
      `${'a'.repeat(250)}@example.com`,
      'ana@example.com\u0000',
    ]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await adminCall(app, method, `/admin/api/personal-data?email=${q(bad)}`);
        expect(res.status, `${method} ${JSON.stringify(bad)}`).toBe(400);
        expect(((await res.json()) as Json).error.code).toBe('VALIDATION_ERROR');
      }
    }
    const missing = await adminCall(app, 'DELETE', '/admin/api/personal-data');
    expect(missing.status).toBe(400);
    const bad = await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${q(ana.email)}&crm=yes`);
    expect(bad.status).toBe(400);
    expect(await server.deps.db.selectFrom('privacy_audit').select('id').execute()).toEqual([]);
    expect((await exportOf(ana.email)).status).toBe(200);
  });

  it('exports everything held about the address, case-insensitively, and nothing of anyone else', async () => {
    const { status, body, headers } = await exportOf(` ${ana.email.toUpperCase()} `);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body.email).toBe(ana.email);
    const data = body.data as Json;
    expect(data.leads).toHaveLength(1);
    expect(data.leads[0]).toMatchObject({
      id: ids.ana?.leadId,
      name: ana.name,
      email: ana.email,
      phone: '+57 300 123 4567',
      company: ana.company,
      chatSessionId: ana.chatSessionId,
      answers: { service: 'build-website', goal: `Direct bookings for ${ana.company}` },
      classification: 'lead',
    });
    expect(data.leads[0].crm.personId).toEqual(expect.any(Number));
    expect(data.leads[0].crm.dealId).toEqual(expect.any(Number));
    expect(data.prototypeQuota).toEqual([expect.objectContaining({ kind: 'landing', used: 1 })]);
    expect(data.prototypes[0]).toMatchObject({ leadId: ids.ana?.leadId, status: 'completed' });
    expect(data.chatSessions.map((s: Json) => s.sessionId)).toEqual([ana.chatSessionId]);
    expect(data.chatSessions[0].messages[0].content).toContain(ana.email);
    expect(data.contactMessages).toEqual([expect.objectContaining({ id: ids.ana?.contactId })]);
    expect(data.supportMessages).toEqual([expect.objectContaining({ email: ana.email })]);
    expect(data.supportMessages[0].crm.dealId).toEqual(expect.any(Number));
    expect(data.tickets).toHaveLength(1);
    const file = data.tickets[0].files[0];
    expect(file).toMatchObject({ filename: 'notes.txt', contentType: 'text/plain' });
    expect(data.emails.length).toBeGreaterThanOrEqual(5);
    expect(body.counts).toMatchObject({ leads: 1, tickets: 1, contactMessages: 1, chatSessions: 1 });

    // Nothing of Xana's, although her address contains Ana's.
    expect(JSON.stringify(body)).not.toContain(xana.email);
    expect(JSON.stringify(body)).not.toContain(xana.name);
    // Nor Bea's message and the team's e-mail about it, although they name Ana's address.
    expect(JSON.stringify(body)).not.toContain(bea.email);

    // The file, downloaded as the export links it.
    const download = await adminCall(app, 'GET', file.download);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
    expect(await download.text()).toBe(`Notes of ${ana.name} <${ana.email}>\n`);
    expect(file.size).toBe(Buffer.byteLength(`Notes of ${ana.name} <${ana.email}>\n`));
    expect(
      (await adminCall(app, 'GET', `/admin/api/support/tickets/${ids.ana?.ticketId}/files/9`)).status,
    ).toBe(404);
  });

  it('answers 404 when nothing is held', async () => {
    const { status, body } = await exportOf('nobody.here@example.com');
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });

  it('lists the retention periods, the listing mode and the CRM', async () => {
    const res = await adminCall(app, 'GET', '/admin/api/privacy');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({
      personalDataLists: 'public',
      auditKey: 'ADMIN_API_SECRET',
      crm: { configured: true, pendingErasures: 0, failedErasures: 0 },
    });
    const days = Object.fromEntries(body.retention.map((r: Json) => [r.kind, [r.variable, r.days]]));
    expect(days).toMatchObject({
      'spam and vendor leads': ['RETENTION_SPAM_DAYS', 30],
      'spam and vendor support messages': ['RETENTION_SPAM_DAYS', 30],
      "the outbox's e-mails and dead e-mail jobs": ['RETENTION_MAIL_DAYS', 90],
      'chat messages': ['RETENTION_CHAT_DAYS', 180],
      'support tickets and their files': ['RETENTION_TICKETS_DAYS', 730],
      'contact-form messages': ['RETENTION_MESSAGES_DAYS', 730],
      'leads, with their prototypes': ['RETENTION_LEADS_DAYS', 0],
    });
  });

  it('erases the person in one request, leaves the other, and audits with a keyed hash', async () => {
    const res = await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${q(ana.email)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.crm.status).toBe('not_requested');
    expect(body.counts).toMatchObject({
      leads: 1,
      tickets: 1,
      ticketFiles: 1,
      contactMessages: 1,
      supportMessages: 1,
    });
    expect(body.total).toBe(Object.values(body.counts as Record<string, number>).reduce((a, b) => a + b, 0));
    expect((await exportOf(ana.email)).status).toBe(404);
    expect(
      (await adminCall(app, 'GET', `/admin/api/support/tickets/${ids.ana?.ticketId}/files/1`)).status,
    ).toBe(404);

    const other = await exportOf(xana.email);
    expect(other.status).toBe(200);
    expect(other.body.counts).toMatchObject({ leads: 1, tickets: 1, contactMessages: 1, chatSessions: 1 });
    // Bea's e-mail to the team, naming Ana's address, is Bea's: it stays.
    const beas = await exportOf(bea.email);
    expect(beas.body.data.emails.some((e: Json) => JSON.stringify(e).includes(ana.email))).toBe(true);
    // Not asked to: the CRM still has her.
    expect(pipedrive.persons.some((p) => p.email === ana.email)).toBe(true);

    const audit = (await (await adminCall(app, 'GET', '/admin/api/privacy/audit')).json()) as Json;
    expect(audit.total).toBe(1);
    expect(audit.entries[0]).toMatchObject({
      id: body.auditId,
      reason: 'request',
      counts: body.counts,
      crm: null,
    });
    expect(audit.entries[0].emailHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(audit)).not.toContain(ana.email);
    const byAddress = (await (
      await adminCall(app, 'GET', `/admin/api/privacy/audit?email=${q(ana.email.toUpperCase())}`)
    ).json()) as Json;
    expect(byAddress.entries.map((e: Json) => e.id)).toEqual([body.auditId]);
    const none = (await (
      await adminCall(app, 'GET', `/admin/api/privacy/audit?email=${q(xana.email)}`)
    ).json()) as Json;
    expect(none.entries).toEqual([]);

    // Nothing held any more is not an error: zero counts, and the request is recorded.
    const again = (await (
      await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${q(ana.email)}`)
    ).json()) as Json;
    expect(again.total).toBe(0);
  });

  it('reaches the CRM when asked; a CRM failure is reported, the local erasure stands, the queue finishes it', async () => {
    expect(pipedrive.persons.some((p) => p.email === xana.email)).toBe(true);
    pipedrive.fail = (req) => req.method === 'DELETE';
    const res = await adminCall(app, 'DELETE', `/admin/api/personal-data?email=${q(xana.email)}&crm=true`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.crm.status).toBe('queued');
    expect(body.crm.message).toMatch(/retried/);
    expect(body.counts.leads).toBe(1);
    expect((await exportOf(xana.email)).status).toBe(404);
    const db = server.deps.db;
    const pending = await db
      .selectFrom('privacy_crm_erasures')
      .selectAll()
      .where('id', '=', body.auditId)
      .executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'pending', email: xana.email });
    expect(pending.last_error).toMatch(/500/);
    const settings = (await (await adminCall(app, 'GET', '/admin/api/privacy')).json()) as Json;
    expect(settings.crm.pendingErasures).toBe(1);

    pipedrive.fail = () => false;
    expect(await server.deps.worker.drain(CRM_ERASURE.queue)).toBe(1);
    expect(pipedrive.persons.some((p) => p.email === xana.email)).toBe(false);
    expect(JSON.stringify([pipedrive.deals, pipedrive.notes])).not.toContain(xana.company);
    const done = await db
      .selectFrom('privacy_crm_erasures')
      .selectAll()
      .where('id', '=', body.auditId)
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'done', email: null });
    const audit = await db
      .selectFrom('privacy_audit')
      .selectAll()
      .where('id', '=', body.auditId)
      .executeTakeFirstOrThrow();
    expect(audit.crm_status).toBe('erased');
    expect(JSON.parse(audit.crm_detail ?? '{}')).toMatchObject({ persons: 1, deals: 2 });
  });

  it('asked to reach the CRM without PIPEDRIVE_API_TOKEN: erased here, said so', async () => {
    const bare = await startTestServer({ engine, env: PRIVACY_ENV });
    try {
      const carla = newPerson('Carla');
      await createPersonEverywhere(served(bare.url), carla);
      const res = await adminCall(
        served(bare.url),
        'DELETE',
        `/admin/api/personal-data?email=${q(carla.email)}&crm=true`,
      );
      const body = (await res.json()) as Json;
      expect(body.crm.status).toBe('not_configured');
      expect(body.counts.leads).toBe(1);
      expect(await bare.deps.db.selectFrom('privacy_crm_erasures').select('id').execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
