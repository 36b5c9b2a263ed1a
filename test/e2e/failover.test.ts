/**
 * Database failover: two real server processes on one PostgreSQL schema, busy with lead submissions,
 * listings, prototype generations followed over SSE and their queue workers (e-mail, CRM, prototypes),
 * while the test terminates every backend of theirs again and again (`pg_terminate_backend`, what a
 * restart or failover does to them). Both must live; what was in flight fails cleanly (503 in the
 * envelope, or the job retried); every acknowledged lead is stored and every job completes once.
 * Then the SQLite equivalent: the database file locked by another process past the busy timeout.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageIdFor } from '../../src/integrations/mail/queue.ts';
import {
  createTestDatabase,
  postgresAvailable,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../support/database.ts';
import { startLlmStandIn } from '../support/llm-stand-in.ts';
import { startPipedriveStandIn } from '../support/pipedrive-stand-in.ts';
import { type ServerProcess, spawnServer } from '../support/process.ts';
import { startSmtpStandIn } from '../support/smtp-stand-in.ts';
import {
  type Answer,
  call,
  healthcheck,
  leadBody,
  postJson,
  readSse,
  type SseEvent,
  startInstances,
  waitFor,
} from './support.ts';

const hasPostgres = await postgresAvailable();
if (!hasPostgres) console.warn('failover e2e skipped: PostgreSQL is not reachable (TEST_DATABASE_URL)');

const FROM = 'Agency <hello@agency.example>';
/** How long the load runs, and how often every backend of the app is terminated meanwhile. */
const LOAD_MS = 9_000;
const TERMINATE_EVERY_MS = 1_500;
/** Lead submissions in parallel lanes, each one every this often; every third asks for a prototype. */
const SUBMIT_LANES = 3;
const SUBMIT_EVERY_MS = 100;

/** A usable prototype page, streamed by the model stand-in in pieces over about two seconds. */
const PAGE = `<!doctype html><html><head><title>Hotel Sol</title></head><body><header><h1>Hotel Sol</h1></header><main>${'<section><h2>Rooms by the sea</h2><p>Book direct for the best rate, breakfast included, late check-out on request.</p></section>'.repeat(6)}</main><footer>Hotel Sol</footer></body></html>`;

/** An answer is clean when it is a 2xx/4xx the route documents, or a 503 in the envelope with Retry-After. */
function unclean(answer: Answer): boolean {
  if (answer.status !== 503) return answer.status >= 500;
  const error = (answer.body as { error?: { code?: string } } | null)?.error;
  return error?.code !== 'NOT_CONFIGURED' || !answer.headers.get('retry-after');
}

/** Follows generate-stream as EventSource would: reconnects (with Last-Event-ID) until `complete`. */
async function followToCompletion(url: string, deadline: number) {
  const statuses: number[] = [];
  const events: SseEvent[] = [];
  while (Date.now() < deadline) {
    const lastId = events.findLast((event) => event.id !== null)?.id;
    try {
      const read = await readSse(
        url,
        { headers: lastId ? { 'last-event-id': lastId } : {} },
        ['complete'],
        Math.max(1000, deadline - Date.now()),
      );
      statuses.push(read.status);
      events.push(...read.events);
      if (read.events.some((event) => event.event === 'complete')) break;
    } catch {
      statuses.push(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // EventSource's reconnection delay
  }
  return { statuses, events, completed: events.some((event) => event.event === 'complete') };
}

describe.skipIf(!hasPostgres)('PostgreSQL backends terminated under load, on two instances', () => {
  let database: TestDatabase;
  let instances: ServerProcess[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let pipedrive: Awaited<ReturnType<typeof startPipedriveStandIn>>;
  let llm: Awaited<ReturnType<typeof startLlmStandIn>>;
  /** Marks this file's app connections: other test files share the server and keep theirs. */
  const applicationName = `failover_${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    [database, smtp, pipedrive, llm] = await Promise.all([
      createTestDatabase('postgres'),
      startSmtpStandIn(0, { delayMs: 50 }),
      startPipedriveStandIn(),
      startLlmStandIn(
        (request) =>
          (JSON.parse(request.body) as { stream?: boolean }).stream
            ? PAGE
            : '{"classification": "lead", "reason": "a genuine project"}',
        { streamPacingMs: 80, streamPieceChars: 40 },
      ),
    ]);
    pipedrive.delayMs = 50;
    const url = new URL(database.url);
    url.searchParams.set('application_name', applicationName);
    instances = await startInstances(2, {
      DATABASE_URL: url.toString(),
      TRUST_PROXY: 'xff',
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      SUPPORT_EMAIL: 'sales@agency.example',
      PIPEDRIVE_API_TOKEN: pipedrive.token,
      PIPEDRIVE_API_URL: pipedrive.url,
      AI_BASE_URL: `${llm.url}/v1`,
      AI_API_KEY: 'e2e-llm-key',
      AI_MODEL: 'stand-in',
      PROTOTYPE_GENERATOR: 'llm',
      PROTOTYPE_MONTHLY_LIMIT: '1000',
      QUEUE_LEASE_MS: '3000',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([smtp?.close(), pipedrive?.close(), llm?.close()]);
    await database?.dispose();
  });

  it('both live; in-flight work fails cleanly; acknowledged leads are stored; every job completes once', async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const started = Date.now();
    const loading = () => Date.now() - started < LOAD_MS;

    // The failovers: every backend of the two instances, idle or mid-query, repeatedly.
    const terminated: number[] = [];
    const terminator = (async () => {
      while (loading()) {
        await new Promise((resolve) => setTimeout(resolve, TERMINATE_EVERY_MS));
        // In the select list, so it runs only on the rows the filter kept.
        const { rows } = await admin.query<{ done: boolean }>(
          'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1',
          [applicationName],
        );
        terminated.push(rows.filter((row) => row.done).length);
      }
    })();

    // Lead submissions; each acknowledged prototype lead is followed over SSE on the other instance.
    const submissions: { answer: Answer | null; prototype: boolean }[] = [];
    const streams: Promise<{ leadId: string } & Awaited<ReturnType<typeof followToCompletion>>>[] = [];
    const submitter = async (lane: number) => {
      for (let i = lane; loading(); i += SUBMIT_LANES) {
        const target = instances[i % 2]!;
        const prototype = i % 3 === 0;
        const answer = await postJson(
          `${target.url}/api/leads`,
          leadBody({ prototype: prototype ? 'landing' : null }),
          {},
          20_000,
        ).catch(() => null);
        submissions.push({ answer, prototype });
        if (answer?.status === 200 && prototype) {
          const leadId = answer.body!.leadId as string;
          const other = instances[(i + 1) % 2]!;
          streams.push(
            followToCompletion(`${other.url}/api/leads/${leadId}/generate-stream`, Date.now() + 150_000).then(
              (followed) => ({ leadId, ...followed }),
            ),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, SUBMIT_EVERY_MS));
      }
    };

    // Listings and single reads, alternating instances.
    const reads: (Answer | null)[] = [];
    const reader = async (lane: number) => {
      for (let i = lane; loading(); i++) {
        const target = instances[i % 2]!;
        const known = submissions.findLast((s) => s.answer?.status === 200)?.answer?.body?.leadId;
        const path = i % 2 === 0 || !known ? '/api/leads?page=1&limit=20' : `/api/leads/${known}`;
        reads.push(await call(`${target.url}${path}`, { timeoutMs: 20_000 }).catch(() => null));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    await Promise.all([
      terminator,
      ...Array.from({ length: SUBMIT_LANES }, (_, lane) => submitter(lane)),
      reader(0),
      reader(1),
    ]);
    await admin.end();

    // Both processes lived through it and answer the container's health check.
    for (const instance of instances) {
      expect(instance.child.exitCode, instance.output.slice(-20).join('\n')).toBe(null);
      expect(instance.child.signalCode).toBe(null);
      expect(await healthcheck(instance.port)).toBe(0);
    }
    const output = instances.flatMap((instance) => instance.output);
    expect(output.filter((line) => /Unhandled|uncaught/i.test(line))).toEqual([]);

    // What was in flight failed cleanly: a 503 in the envelope with Retry-After, never a 500 or a cut.
    const leadAnswers = submissions.map((s) => s.answer);
    expect(leadAnswers.filter((answer) => answer === null)).toHaveLength(0);
    expect(leadAnswers.filter((answer) => unclean(answer!)).map((a) => [a!.status, a!.text])).toEqual([]);
    expect(reads.filter((answer) => answer === null)).toHaveLength(0);
    expect(reads.filter((answer) => unclean(answer!)).map((a) => [a!.status, a!.text])).toEqual([]);

    // Every acknowledged lead is stored.
    const acknowledged = leadAnswers.filter((a) => a!.status === 200).map((a) => a!.body!.leadId as string);
    const stored = async () =>
      (await sql<{ id: string }>`select id from leads`.execute(database.handle.db)).rows.map((row) => row.id);
    const storedIds = await stored();
    expect(acknowledged.filter((id) => !storedIds.includes(id))).toEqual([]);

    // Every prototype followed reaches `complete` (the stream resumes; the queue retries).
    const followed = await Promise.all(streams);
    expect(followed.filter((stream) => !stream.completed).map((stream) => stream.leadId)).toEqual([]);
    expect(
      followed.flatMap((stream) => stream.statuses).filter((status) => status !== 200 && status !== 503),
    ).toEqual([]);

    // Every stored lead gets its two e-mails and one deal; every job ends completed, none dead.
    const copies = (messageId: string) => smtp.messages.filter((m) => m.messageId === messageId).length;
    const dealsOf = (id: string) => pipedrive.deals.filter((deal) => deal.title.includes(id)).length;
    const openJobs = async () =>
      (
        await sql<{ queue: string; status: string; n: string }>`
          select queue, status, count(*) as n from jobs where status <> 'completed' group by queue, status`.execute(
          database.handle.db,
        )
      ).rows;
    const settled = async () => {
      const ids = await stored();
      const sideEffects = ids.every(
        (id) =>
          dealsOf(id) >= 1 &&
          ['confirmation', 'notification'].every((kind) => copies(messageIdFor(`${id}:${kind}`, FROM)) >= 1),
      );
      // Watchdog jobs of the generations are due 50 s after each start; an attempt whose start was
      // cut (its first progress write lost) is taken over once stale (45 s), and watched again.
      return sideEffects && (await openJobs()).length === 0;
    };
    await waitFor('every job completed', settled, 150_000, 500).catch(() => {});
    const ids = await stored();
    const expectedEmails = ids.flatMap((id) =>
      ['confirmation', 'notification'].map((kind) => messageIdFor(`${id}:${kind}`, FROM)),
    );
    const figures = {
      terminationRounds: terminated.length,
      backendsTerminated: terminated.reduce((a, b) => a + b, 0),
      leadsSent: submissions.length,
      acknowledged: acknowledged.length,
      answered503: leadAnswers.filter((a) => a!.status === 503).length,
      reads: reads.length,
      reads503: reads.filter((a) => a!.status === 503).length,
      streamsFollowed: followed.length,
      streamReconnects: followed.reduce((n, stream) => n + stream.statuses.length - 1, 0),
      stored: ids.length,
      connectionErrorsLogged: output.filter((line) => line.includes('a database connection broke')).length,
      emailDeliveries: smtp.messages.length,
      distinctEmails: new Set(smtp.messages.map((m) => m.messageId)).size,
      deals: pipedrive.deals.length,
      settledAfterMs: Date.now() - started,
    };
    console.log(`failover figures ${JSON.stringify(figures)}`);

    expect(
      terminated.every((n) => n > 0),
      'every round terminated some backend',
    ).toBe(true);
    expect(figures.connectionErrorsLogged).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(await openJobs()).toEqual([]);
    expect(expectedEmails.filter((messageId) => copies(messageId) === 0)).toEqual([]);
    // A job runs once: its outcome is recorded through the outage, so no e-mail goes out twice.
    expect(figures.emailDeliveries).toBe(expectedEmails.length);
    expect(ids.map(dealsOf)).toEqual(Array(ids.length).fill(1));

    // The pools replaced their connections: both instances read the database again.
    for (const instance of instances) {
      expect((await call(`${instance.url}/api/leads?page=1&limit=1`)).status).toBe(200);
    }
  }, 300_000);
});

describe('SQLite: the database file locked by another process past the busy timeout', () => {
  let directory: string;
  let instance: ServerProcess;
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'failover-sqlite-'));
    smtp = await startSmtpStandIn();
    instance = await spawnServer({
      DATABASE_URL: `sqlite:${join(directory, 'app.db')}`,
      TRUST_PROXY: 'xff',
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      SUPPORT_EMAIL: 'sales@agency.example',
    });
  }, 30_000);

  afterAll(async () => {
    await instance?.stop();
    await smtp?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes answer 503 in the envelope while it is locked; the process lives; all is done once it is free', async () => {
    const before = await postJson(`${instance.url}/api/leads`, leadBody({ prototype: null }));
    expect(before.status).toBe(200);

    const other = new DatabaseSync(join(directory, 'app.db'));
    other.exec('BEGIN EXCLUSIVE');
    let locked: Answer;
    try {
      // The app waits out its busy timeout (5 s), then gives up on the write.
      locked = await postJson(`${instance.url}/api/leads`, leadBody({ prototype: null }));
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(locked.status).toBe(503);
    expect(locked.headers.get('retry-after')).toBe('5');
    expect(locked.body).toMatchObject({ success: false, error: { code: 'NOT_CONFIGURED' } });
    expect(instance.child.exitCode).toBe(null);
    expect(await healthcheck(instance.port)).toBe(0);

    // Free again: the same kind of request is stored, and the queue delivers what was queued.
    const after = await postJson(`${instance.url}/api/leads`, leadBody({ prototype: null }));
    expect(after.status).toBe(200);
    const leadIds = [before.body!.leadId as string, after.body!.leadId as string];
    const expected = leadIds.flatMap((id) =>
      ['confirmation', 'notification'].map((kind) => messageIdFor(`${id}:${kind}`, FROM)),
    );
    await waitFor('the e-mails of both leads', () =>
      expected.every((messageId) => smtp.messages.some((m) => m.messageId === messageId)),
    );
    expect(smtp.messages.map((m) => m.messageId).sort()).toEqual([...expected].sort());
    expect(
      instance.output.filter((line) => /"level":(50|60)/.test(line) && !line.includes('queue poll')),
    ).toEqual([]);
  }, 60_000);
});
