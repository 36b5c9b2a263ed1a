import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import {
  createLead,
  gatedGenerator,
  type ParsedEvent,
  post,
  readEvents,
} from '../../../test/support/features/prototypes.ts';
import { LogCapture, testConfig } from '../../../test/support/test-app.ts';
import { createApp } from '../../app.ts';
import { type DatabaseHandle, type Engine, openDatabase } from '../../db/database.ts';
import { createDependencies, type Dependencies } from '../../dependencies.ts';
import type { PrototypeGenerator } from '../../integrations/prototype-generator/types.ts';
import { createLogger } from '../../logger.ts';
import { type RunningServer, startServer } from '../../server.ts';
import { prototypeContext, prototypePorts } from './context.ts';
import { errorPayload } from './generation.ts';
import { PROTOTYPE_QUEUE } from './queue.ts';
import { attemptById, failAttempt, latestAttempt, startAttempt } from './store.ts';

interface Instance {
  deps: Dependencies;
  server: RunningServer;
  url: string;
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Two instances of the service on one database: what one writes, the other streams. */
async function startInstances(engine: Engine, generators: PrototypeGenerator[]) {
  const sqlitePath = engine === 'sqlite' ? join(mkdtempSync(join(tmpdir(), 'proto-')), 'app.db') : undefined;
  const database: TestDatabase = await createTestDatabase(engine, { sqlitePath });
  const handles: DatabaseHandle[] = [];
  const instances: Instance[] = [];
  for (const [i, generator] of generators.entries()) {
    const handle = i === 0 ? database.handle : openDatabase(database.url, { poolSize: 5 });
    if (i > 0) handles.push(handle);
    const config = testConfig({
      DATABASE_URL: database.url,
      PUBLIC_BASE_URL: 'https://api.agency.example',
      PROTOTYPE_MONTHLY_LIMIT: '1',
      TRUST_PROXY: 'xff',
    });
    const deps = await createDependencies(config, createLogger('warn', new LogCapture().stream), {
      database: handle,
      prototypeGenerator: generator,
      backoffBaseMs: 1,
    });
    const server = await startServer(deps, createApp(deps));
    instances.push({
      deps,
      server,
      url: server.url,
      request: (path, init) => fetch(`${server.url}${path}`, init),
    });
  }
  return {
    instances,
    async close() {
      for (const instance of instances.reverse()) await instance.server.shutdown();
      await database.dispose().catch(() => {});
    },
  };
}

function stream(instance: Instance, leadId: string, lastEventId?: string, signal?: AbortSignal) {
  return instance.request(`/api/leads/${leadId}/generate-stream`, {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal,
  });
}

const ids = (events: ParsedEvent[]) => events.map((e) => Number(e.id));

describe.each(await testEngines())('generate-stream on %s', (engine) => {
  const gate = gatedGenerator();
  let world: Awaited<ReturnType<typeof startInstances>>;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    world = await startInstances(engine, [gate.generator, gatedGenerator().generator]);
    [a, b] = world.instances as [Instance, Instance];
  });
  afterAll(() => world.close());

  it('starts the generation and streams progress then complete, with ids and JSON data', async () => {
    const id = await createLead(a, { steps: { prototype: 'application' }, language: 'es' });
    const res = await stream(a, id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual(['progress', 'progress', 'progress', 'progress', 'complete']);
    expect(events.slice(0, 4).map((e) => e.data.step)).toEqual([
      'queued',
      'analysing',
      'generating',
      'rendering',
    ]);
    const seq = ids(events);
    expect(seq.every((n, i) => Number.isInteger(n) && (i === 0 || n > seq[i - 1]!))).toBe(true);
    const percents = events.slice(0, 4).map((e) => e.data.percent as number);
    expect([...percents].sort((x, y) => x - y)).toEqual(percents);
    expect(events[0]!.data).toMatchObject({ leadId: id, attempt: 1, message: 'Tu solicitud está en cola…' });
    expect(typeof events[0]!.data.at).toBe('string');
    expect(events[4]!.data).toMatchObject({
      leadId: id,
      attempt: 1,
      status: 'completed',
      generator: 'builtin',
      kind: 'application',
      previewUrl: `https://api.agency.example/api/leads/${id}/preview`,
      documentUrl: `https://api.agency.example/api/leads/${id}/prototype`,
      demoUrl: null,
      message: 'Tu prototipo está listo.',
    });

    // Connecting again replays the finished attempt; resuming after `complete` ends at once.
    const replay = await readEvents(await stream(b, id));
    expect(ids(replay)).toEqual(seq);
    expect(await readEvents(await stream(b, id, String(seq.at(-1))))).toEqual([]);
  });

  it('a reconnection with Last-Event-ID resumes from the stored state on another instance', async () => {
    gate.close();
    const id = await createLead(a);
    const controller = new AbortController();
    const first = await readEvents(await stream(a, id, undefined, controller.signal), 2);
    controller.abort();
    expect(first.map((e) => e.data.step)).toEqual(['queued', 'analysing']);

    const resumed = stream(b, id, first[1]!.id);
    gate.open();
    const rest = await readEvents(await resumed);
    expect(rest.map((e) => e.event)).toEqual(['progress', 'progress', 'complete']);
    expect(rest.map((e) => e.data.step ?? e.data.status)).toEqual(['generating', 'rendering', 'completed']);
    expect(Math.min(...ids(rest))).toBeGreaterThan(Number(first[1]!.id));
    // Instance b only read: the attempt that completed is the one instance a started.
    expect(await latestAttempt(b.deps.db, id)).toMatchObject({
      attempt: 1,
      status: 'completed',
      origin: 'stream',
    });
  });

  it('a client that disconnects does not cancel the generation', async () => {
    gate.close();
    const id = await createLead(a);
    const controller = new AbortController();
    const seen = await readEvents(await stream(a, id, undefined, controller.signal), 1);
    controller.abort();
    expect(seen[0]!.data.step).toBe('queued');
    gate.open();
    await a.deps.background.idle();
    expect(await latestAttempt(a.deps.db, id)).toMatchObject({ status: 'completed' });
    const page = await (await a.request(`/api/leads/${id}`)).json();
    expect(page).toMatchObject({ lead: { status: 'completed' } });
  });

  it('a stale attempt (its instance died) is restarted by the stream', async () => {
    const id = await createLead(a);
    const ctx = prototypeContext(prototypePorts(a.deps));
    const lead = (await ctx.leads.get(id))!;
    await ctx.leads.reserve(lead);
    await ctx.leads.setStatus(id, 'generating');
    const dead = await startAttempt(a.deps.db, {
      leadId: id,
      kind: 'landing',
      language: 'en',
      generator: 'builtin',
      origin: 'trigger',
      staleAfterMs: 45_000,
      now: Date.now() - 10 * 60_000,
    });
    const events = await readEvents(await stream(b, id));
    expect(events.at(-1)).toMatchObject({ event: 'complete', data: { attempt: 2 } });
    expect(events.every((e) => e.data.attempt === 2)).toBe(true);
    expect(await attemptById(a.deps.db, dead.attempt.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/stale/),
    });
    await b.deps.background.idle();
  });

  it('a failed attempt is restarted by the stream', async () => {
    const id = await createLead(a);
    const begun = await startAttempt(a.deps.db, {
      leadId: id,
      kind: 'landing',
      language: 'en',
      generator: 'builtin',
      origin: 'trigger',
      staleAfterMs: 45_000,
    });
    await failAttempt(a.deps.db, begun.attempt, 'v0 was down', () =>
      errorPayload(begun.attempt, id, 'en', 'GENERATION_FAILED', false),
    );
    const events = await readEvents(await stream(a, id));
    expect(events[0]).toMatchObject({ event: 'progress', data: { attempt: 2, step: 'queued' } });
    expect(events.at(-1)).toMatchObject({ event: 'complete', data: { attempt: 2 } });
    await a.deps.background.idle();
  });

  it('when a restart needs quota that is used up, the stream says so in an error event', async () => {
    const email = `stream-quota.${Date.now()}@example.com`;
    const first = await createLead(a, { personal: { email_address: email } });
    const second = await createLead(a, { personal: { email_address: email }, steps: { goal: 'Second' } });
    expect((await post(a, `/api/leads/${first}/generate`)).status).toBe(200);
    const events = await readEvents(await stream(a, second));
    expect(events).toEqual([
      {
        event: 'error',
        id: undefined,
        data: expect.objectContaining({ leadId: second, code: 'RATE_LIMITED', retrying: false }),
      },
    ]);
  });

  it('a stream error enqueues the lead to PrototypeQueue as a safety net', async () => {
    const id = await createLead(a);
    expect((await post(a, `/api/leads/${id}/generate`)).status).toBe(200);
    // A damaged event row makes the stream fail while replaying.
    await a.deps.db
      .updateTable('prototype_events')
      .set({ data: '{not json' })
      .where('lead_id', '=', id)
      .execute();
    const before = (await a.deps.jobs.list(PROTOTYPE_QUEUE)).length;
    const events = await readEvents(await stream(a, id));
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { leadId: id, code: 'STREAM_FAILED', retrying: true },
    });
    const jobs = await a.deps.jobs.list(PROTOTYPE_QUEUE);
    expect(jobs.length).toBe(before + 1);
    expect(jobs[0]!.payload).toMatchObject({ leadId: id, reason: 'stream-error' });
  });
});
