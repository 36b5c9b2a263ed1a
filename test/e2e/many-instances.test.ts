/**
 * Many instances: three real server processes (`node src/main.js`, the sources of the bundle `npm start`
 * and the container run) on one PostgreSQL schema, with SMTP, Pipedrive and WordPress stand-ins.
 * Everything they share lives in the database: leads, queue jobs, the posts cache.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageIdFor } from '../../src/integrations/mail/queue.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.ts';
import { startPipedriveStandIn } from '../support/pipedrive-stand-in.ts';
import type { ServerProcess } from '../support/process.ts';
import { startSmtpStandIn } from '../support/smtp-stand-in.ts';
import {
  call,
  healthcheck,
  leadBody,
  postJson,
  readSse,
  startInstances,
  startWordPressProcess,
  uniqueEmail,
  waitFor,
} from './support.ts';

const hasPostgres = await postgresAvailable();
if (!hasPostgres) console.warn('many-instances e2e skipped: PostgreSQL is not reachable (TEST_DATABASE_URL)');

const CHAT_KEY = 'e2e-chat-key';
const CACHE_KEY = 'e2e-cache-key';
const LEADS = 12;
const FROM = 'Agency <hello@agency.example>';

describe.skipIf(!hasPostgres)('three instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let instances: ServerProcess[];
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let pipedrive: Awaited<ReturnType<typeof startPipedriveStandIn>>;
  let wordpress: Awaited<ReturnType<typeof startWordPressProcess>>;

  beforeAll(async () => {
    [database, smtp, pipedrive, wordpress] = await Promise.all([
      createTestDatabase('postgres'),
      startSmtpStandIn(),
      startPipedriveStandIn(),
      startWordPressProcess(),
    ]);
    instances = await startInstances(3, {
      DATABASE_URL: database.url,
      TRUST_PROXY: 'xff',
      CHAT_API_SECRET: CHAT_KEY,
      CACHE_API_SECRET: CACHE_KEY,
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      SUPPORT_EMAIL: 'sales@agency.example',
      PIPEDRIVE_API_TOKEN: pipedrive.token,
      PIPEDRIVE_API_URL: pipedrive.url,
      WORDPRESS_API_URL: `http://127.0.0.1:${wordpress.port}/wp-json/wp/v2`,
      PROTOTYPE_MONTHLY_LIMIT: '2',
      QUEUE_LEASE_MS: '3000',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    wordpress?.stop();
    await Promise.all([smtp?.close(), pipedrive?.close()]);
    await database?.dispose();
  });

  it('every instance passes the container health check', async () => {
    expect(await Promise.all(instances.map((instance) => healthcheck(instance.port)))).toEqual([0, 0, 0]);
  });

  it('a lead created through one instance is listed and looked up through the others', async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess];
    const body = leadBody({ prototype: null });
    const created = await postJson(`${a.url}/api/leads`, body);
    expect(created.status).toBe(200);
    const leadId = created.body!.leadId as string;

    const one = await call(`${b.url}/api/leads/${leadId}`);
    expect(one.status).toBe(200);
    expect((one.body!.lead as { email: string }).email).toBe(body.personal.email_address);

    const list = await call(`${c.url}/api/leads?all=true`);
    expect((list.body!.leads as { id: string }[]).map((lead) => lead.id)).toContain(leadId);

    const lookup = await call(
      `${c.url}/api/leads/lookup?email=${encodeURIComponent(body.personal.email_address)}`,
      { headers: { 'x-chat-api-key': CHAT_KEY } },
    );
    expect(lookup.body).toMatchObject({ exists: true, name: 'Ana García', company: 'Hotel Sol' });

    // The same submission sent again through another instance is recognised as the same lead.
    const again = await postJson(`${b.url}/api/leads`, body);
    expect(again.body!.leadId).toBe(leadId);
  });

  it('queue jobs run exactly once with workers in every instance: each e-mail delivered once', async () => {
    const before = smtp.messages.length;
    const dealsBefore = pipedrive.deals.length;
    const answers = await Promise.all(
      Array.from({ length: LEADS }, (_, i) =>
        postJson(`${instances[i % instances.length]!.url}/api/leads`, leadBody({ prototype: null })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(LEADS).fill(200));
    const leadIds = answers.map((answer) => answer.body!.leadId as string);

    // Two e-mails per lead (confirmation, notification), from whichever instance claimed each job;
    // each carries the Message-ID derived from its idempotency key.
    const expected = leadIds.flatMap((id) =>
      ['confirmation', 'notification'].map((kind) => messageIdFor(`${id}:${kind}`, FROM)),
    );
    const copies = (messageId: string) => smtp.messages.filter((m) => m.messageId === messageId).length;
    await waitFor('every e-mail delivered', () => expected.every((id) => copies(id) >= 1), 30_000);
    // A worker that ran a job twice would deliver a second copy within a poll or two.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(expected.map(copies)).toEqual(Array(2 * LEADS).fill(1));
    expect(smtp.messages.length - before).toBeGreaterThanOrEqual(2 * LEADS);

    // One Pipedrive deal per lead (the in-request sync), none twice.
    const deals = pipedrive.deals.slice(dealsBefore);
    for (const id of leadIds) expect(deals.filter((deal) => deal.title.includes(id))).toHaveLength(1);

    const jobs = await sql<{ status: string; count: string }>`
      select status, count(*) as count from jobs where queue = 'confirmation-email' group by status`.execute(
      database.handle.db,
    );
    expect(jobs.rows.filter((row) => row.status !== 'completed')).toEqual([]);
  }, 45_000);

  it('a posts cache purge on one instance is seen by all', async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess];
    const first = await call(`${a.url}/api/posts?per_page=5`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    // B has never read it: a hit from the shared cache.
    const fromB = await call(`${b.url}/api/posts?per_page=5`);
    expect(fromB.headers.get('x-cache')).toBe('HIT');

    const purge = await call(`${c.url}/api/posts/cache`, {
      method: 'DELETE',
      headers: { 'x-cache-api-key': CACHE_KEY },
    });
    expect(purge.body).toMatchObject({ success: true });
    expect(purge.body!.purged).toBeGreaterThanOrEqual(1);

    // Each instance may keep a fresh entry it read for at most one second (docs/outbound.md).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    for (const instance of [a, b]) {
      const status = await call(`${instance.url}/api/posts/cache/status`);
      expect(status.body!.entries).toBe(0);
    }
    const afterPurge = await call(`${b.url}/api/posts?per_page=5`);
    expect(afterPurge.headers.get('x-cache')).toBe('MISS');
    const thenA = await call(`${a.url}/api/posts?per_page=5`);
    expect(thenA.headers.get('x-cache')).toBe('HIT');
  });

  it('the prototype quota holds across instances: exactly PROTOTYPE_MONTHLY_LIMIT of parallel requests win', async () => {
    // The chat path (X-Chat-Api-Key) creates the prototype before answering, reserving a slot of the
    // e-mail's bucket; each request comes from its own IP, so only the shared e-mail bucket limits them.
    const email = uniqueEmail('quota');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postJson(
          `${instances[i % instances.length]!.url}/api/leads`,
          leadBody({ email, goal: `Project number ${i} for our hotel` }),
          { 'x-chat-api-key': CHAT_KEY },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    for (const won of answers.filter((answer) => answer.status === 200)) {
      expect(won.body!.prototype).toMatchObject({ status: 'completed' });
    }
    const lookup = await call(`${instances[2]!.url}/api/leads/lookup?email=${encodeURIComponent(email)}`, {
      headers: { 'x-chat-api-key': CHAT_KEY },
    });
    expect((lookup.body!.rateLimit as { landing: unknown }).landing).toEqual({
      used: 2,
      limit: 2,
      remaining: 0,
    });
  }, 45_000);

  it('a generation started on one instance streams its progress from another', async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess];
    const created = await postJson(`${a.url}/api/leads`, leadBody({ prototype: 'landing' }));
    expect(created.status).toBe(200);
    const id = created.body!.leadId as string;
    const started = await call(`${a.url}/api/leads/${id}/trigger-generation`, { method: 'POST' });
    expect(started.body).toMatchObject({ success: true, status: 'started' });

    const stream = await readSse(
      `${b.url}/api/leads/${id}/generate-stream`,
      {},
      ['complete', 'error'],
      30_000,
    );
    expect(stream.status).toBe(200);
    const names = stream.events.map((event) => event.event);
    expect(names).toContain('progress');
    expect(names.at(-1)).toBe('complete');
    const percents = stream.events
      .filter((event) => event.event === 'progress')
      .map((event) => (JSON.parse(event.data) as { percent: number }).percent);
    expect(percents).toEqual([...percents].sort((x, y) => x - y));

    // Resuming on a third instance after the last seen event sends only what came later.
    const lastProgress = stream.events.filter((event) => event.event === 'progress').at(-1)!;
    const resumed = await readSse(
      `${c.url}/api/leads/${id}/generate-stream`,
      { headers: { 'last-event-id': lastProgress.id! } },
      ['complete', 'error'],
      30_000,
    );
    expect(resumed.events.map((event) => event.event)).toEqual(['complete']);
    const document = await call(`${c.url}/api/leads/${id}/prototype`);
    expect(document.status).toBe(200);
  }, 45_000);

  it('chat history written by one instance is read by another', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const sessionId = `e2e-${uniqueEmail('chat')}`;
    const stream = await readSse(
      `${a.url}/api/chat/stream`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-chat-api-key': CHAT_KEY,
          'x-forwarded-for': '198.19.0.1',
        },
        body: JSON.stringify({ sessionId, query: 'How much does an online store cost?', language: 'en' }),
      },
      ['done', 'error'],
      30_000,
    );
    expect(stream.events.at(-1)?.event).toBe('done');
    const answer = (JSON.parse(stream.events.at(-1)!.data) as { content: string }).content;
    const history = await waitFor('the stored answer', async () => {
      const read = await call(`${b.url}/api/chat/${encodeURIComponent(sessionId)}/history`, {
        headers: { 'x-chat-api-key': CHAT_KEY },
      });
      return (read.body?.total as number) >= 2 ? read.body : null;
    });
    expect(history).toMatchObject({
      sessionId,
      total: 2,
      messages: [
        { role: 'user', content: 'How much does an online store cost?' },
        { role: 'assistant', content: answer },
      ],
    });
  });
});
