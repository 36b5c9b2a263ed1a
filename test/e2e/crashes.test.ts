/**
 * Crashes: two real server processes on one PostgreSQL; one is killed with SIGKILL in the middle of a
 * burst of lead submissions while its queue workers are delivering e-mail to a slow SMTP server and
 * syncing to a slow Pipedrive. It is then restarted. Every lead acknowledged with 200 must be stored,
 * and every stored lead's side effects (two e-mails, one CRM deal) must complete exactly once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageIdFor } from '../../src/integrations/mail/queue.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.ts';
import { startPipedriveStandIn } from '../support/pipedrive-stand-in.ts';
import { type ServerProcess, spawnServer } from '../support/process.ts';
import { startSmtpStandIn } from '../support/smtp-stand-in.ts';
import { leadBody, postJson, startInstances, waitFor } from './support.ts';

const hasPostgres = await postgresAvailable();
if (!hasPostgres) console.warn('crash e2e skipped: PostgreSQL is not reachable (TEST_DATABASE_URL)');

const FROM = 'Agency <hello@agency.example>';
const BURST = 40;
const SPACING_MS = 30;
const KILL_AT_MS = 700;
/** Pipedrive answers 500 for the first part of the burst, so those leads' CRM sync goes to the queue. */
const CRM_DOWN_UNTIL_MS = 400;

/** The figures of the last run, printed for docs/resilience.md. */
export interface CrashFigures {
  sent: number;
  acknowledged: number;
  refusedOrCut: number;
  presentAfterRestart: number;
  acknowledgedPresent: number;
  storedNotAcknowledged: number;
  emailsExpected: number;
  emailDeliveries: number;
  distinctEmails: number;
  deals: number;
  leadsWithOneDeal: number;
  recoveryMs: number;
}

describe.skipIf(!hasPostgres)('kill -9 during a burst of leads and running queue jobs', () => {
  let database: TestDatabase;
  let instances: ServerProcess[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let pipedrive: Awaited<ReturnType<typeof startPipedriveStandIn>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    [database, smtp, pipedrive] = await Promise.all([
      createTestDatabase('postgres'),
      startSmtpStandIn(0, { delayMs: 300 }),
      startPipedriveStandIn(),
    ]);
    pipedrive.delayMs = 150;
    env = {
      DATABASE_URL: database.url,
      TRUST_PROXY: 'xff',
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      SUPPORT_EMAIL: 'sales@agency.example',
      PIPEDRIVE_API_TOKEN: pipedrive.token,
      PIPEDRIVE_API_URL: pipedrive.url,
      // A dead worker's jobs are claimed again after 3 s instead of the queues' 60–120 s.
      QUEUE_LEASE_MS: '3000',
    };
    instances = await startInstances(2, env);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([smtp?.close(), pipedrive?.close()]);
    await database?.dispose();
  });

  it('acknowledged leads survive, and every side effect completes exactly once', async () => {
    const [victim, survivor] = instances as [ServerProcess, ServerProcess];
    const started = Date.now();
    pipedrive.fail = () => Date.now() - started < CRM_DOWN_UNTIL_MS;

    const killer = new Promise<void>((resolve) =>
      setTimeout(() => {
        victim.child.kill('SIGKILL');
        resolve();
      }, KILL_AT_MS),
    );
    const submissions = Array.from({ length: BURST }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * SPACING_MS));
      const target = i % 2 === 0 ? victim : survivor;
      try {
        const answer = await postJson(`${target.url}/api/leads`, leadBody({ prototype: null }), {}, 20_000);
        return answer.status === 200 ? (answer.body!.leadId as string) : null;
      } catch {
        return null; // refused after the kill, or cut in the middle: not acknowledged
      }
    });
    const results = await Promise.all(submissions);
    await killer;
    expect(await victim.stop()).toBe(null); // killed by the signal
    const acknowledged = results.filter((id): id is string => id !== null);

    // Restart the killed instance, as an orchestrator would.
    const restartedAt = Date.now();
    const restarted = await spawnServer(env, 30_000);
    instances = [restarted, survivor];

    const stored = async () =>
      (await sql<{ id: string; status: string }>`select id, status from leads`.execute(database.handle.db))
        .rows;
    const copies = (messageId: string) => smtp.messages.filter((m) => m.messageId === messageId).length;
    const dealsOf = (id: string) => pipedrive.deals.filter((deal) => deal.title.includes(id)).length;
    const complete = async () => {
      const leads = await stored();
      return leads.every(
        (lead) =>
          lead.status === 'new' &&
          dealsOf(lead.id) >= 1 &&
          ['confirmation', 'notification'].every(
            (kind) => copies(messageIdFor(`${lead.id}:${kind}`, FROM)) >= 1,
          ),
      );
    };
    let recovered = true;
    await waitFor('every stored lead’s e-mails and deal', complete, 45_000, 500).catch(() => {
      recovered = false;
    });
    const recoveryMs = Date.now() - restartedAt;
    // Every job completes, the CRM safety nets too: they are due CRM_SAFETY_NET_DELAY_MS after their
    // lead (15 s), which a quick recovery (6 s seen) has not yet reached.
    const openJobs = async () =>
      (
        await sql<{ queue: string; status: string; n: string }>`
          select queue, status, count(*) as n from jobs where status <> 'completed' group by queue, status`.execute(
          database.handle.db,
        )
      ).rows;
    // Before counting: a safety net that ran would show a second deal, if it made one.
    await waitFor('every job completed', async () => (await openJobs()).length === 0, 30_000, 500).catch(
      () => {},
    );
    // A second delivery of anything would arrive within a lease and a poll.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    const leads = await stored();
    const ids = leads.map((lead) => lead.id);
    const expectedEmails = ids.flatMap((id) =>
      ['confirmation', 'notification'].map((kind) => messageIdFor(`${id}:${kind}`, FROM)),
    );
    const figures: CrashFigures = {
      sent: BURST,
      acknowledged: acknowledged.length,
      refusedOrCut: BURST - acknowledged.length,
      presentAfterRestart: leads.length,
      acknowledgedPresent: acknowledged.filter((id) => ids.includes(id)).length,
      storedNotAcknowledged: ids.filter((id) => !acknowledged.includes(id)).length,
      emailsExpected: expectedEmails.length,
      emailDeliveries: smtp.messages.length,
      distinctEmails: new Set(smtp.messages.map((m) => m.messageId)).size,
      deals: pipedrive.deals.length,
      leadsWithOneDeal: ids.filter((id) => dealsOf(id) === 1).length,
      recoveryMs,
    };
    console.log(`crash figures ${JSON.stringify(figures)}`);

    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThan(BURST); // the kill did cut the burst
    expect(figures.acknowledgedPresent).toBe(acknowledged.length);
    expect(recovered, 'every stored lead’s side effects completed after the restart').toBe(true);
    // Every e-mail arrived, under its own Message-ID (derived from its idempotency key).
    expect(expectedEmails.every((messageId) => copies(messageId) >= 1)).toBe(true);
    expect(figures.distinctEmails).toBe(expectedEmails.length);
    // SMTP has no idempotency: a message accepted just before the kill, whose acknowledgement the dead
    // worker could not record, is sent again after the lease. At most the victim's in-flight e-mail
    // jobs (2) can repeat, each under the same Message-ID so the receiver can drop it.
    expect(figures.emailDeliveries - figures.distinctEmails).toBeLessThanOrEqual(2);
    expect(ids.map(dealsOf)).toEqual(Array(ids.length).fill(1));
    expect(figures.deals).toBe(ids.length);

    expect(await openJobs()).toEqual([]);
    // Senders killed within a message reset their connections; nothing else went wrong on the server.
    expect(smtp.connectionErrors).toEqual([]);
  }, 120_000);
});
