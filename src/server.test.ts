import { createRoute, z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from './http/openapi.ts';
import { sseResponse } from './http/sse.ts';
import { startTestServer, type TestContext } from './testing/test-app.ts';

/** A slow route and an endless stream, to watch shutdown handle both. */
function slowRoutes() {
  const slow = createRoute({
    method: 'get',
    path: '/test/slow',
    request: { query: z.object({ ms: z.coerce.number() }) },
    responses: { 200: { description: 'slow' } },
  });
  const stream = createRoute({
    method: 'get',
    path: '/test/stream',
    responses: { 200: { description: 'sse' } },
  });
  return createRouter()
    .openapi(slow, async (c) => {
      await new Promise((resolve) => setTimeout(resolve, c.req.valid('query').ms));
      return c.json({ done: true }, 200);
    })
    .openapi(stream, (c) =>
      sseResponse(
        c,
        async (writer) => {
          await writer.send('hello', { n: 1 });
          await new Promise<void>((resolve) => writer.signal.addEventListener('abort', () => resolve()));
          await writer.send('bye', { reason: 'shutdown' });
        },
        { shutdownSignal: c.env.deps.shutdownSignal },
      ),
    );
}

let ctx: (TestContext & { url: string; server: { shutdown(): Promise<void> } }) | null = null;
afterEach(async () => {
  await ctx?.database.dispose().catch(() => {});
  ctx = null;
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests, ends open streams, then refuses new connections', async () => {
    ctx = await startTestServer({
      env: { SHUTDOWN_TIMEOUT_MS: '5000' },
      extend: (app) => app.route('/', slowRoutes()),
    });
    const url = ctx.url;
    const inFlight = fetch(`${url}/test/slow?ms=300`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    const stream = await fetch(`${url}/test/stream`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const streamText = stream.text();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    await ctx.server.shutdown();
    expect(await inFlight).toEqual({ status: 200, body: { done: true } });
    const text = await streamText;
    expect(text).toContain('event: hello');
    expect(text).toContain('event: bye');
    // The stream ended on the signal, not by waiting out the whole bound.
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });
});

describe('the shutdown bound', () => {
  it('requests and running jobs share SHUTDOWN_TIMEOUT_MS: a slow request and a hung job do not add up', async () => {
    const bound = 1500;
    ctx = await startTestServer({
      env: { SHUTDOWN_TIMEOUT_MS: String(bound) },
      extend: (app) => app.route('/', slowRoutes()),
    });
    let jobStarted = false;
    ctx.deps.worker.register({
      name: 'test-hung',
      maxAttempts: 1,
      handle: () => {
        jobStarted = true;
        return new Promise<void>(() => {});
      },
    });
    await ctx.deps.jobs.enqueue('test-hung', {});
    ctx.deps.worker.start(); // test apps run no workers of their own
    for (let i = 0; i < 200 && !jobStarted; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(jobStarted).toBe(true);
    const slow = fetch(`${ctx.url}/test/slow?ms=60000`).catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await ctx.server.shutdown();
    // Each waits out the bound at the same time: about one bound in all, not one after the other.
    expect(Date.now() - started).toBeLessThan(bound * 1.6);
    expect(await slow).toBe('cut');
  });
});

describe('the real process', () => {
  it.each([
    ['a malformed URL', 'postgres://postgres@127.0.0.1:notaport/x'],
    ['a server that refuses the connection', 'postgres://postgres@127.0.0.1:9/x'],
  ])('refuses to start on %s with one line naming DATABASE_URL', async (_label, url) => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['src/main.ts'], {
      env: { ...process.env, DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('DATABASE_URL');
  });

  it('starts with `node src/main.ts`, serves, and exits 0 on SIGTERM', async () => {
    const { spawnServer } = await import('./testing/process.ts');
    const server = await spawnServer({ DATABASE_URL: 'sqlite::memory:' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const startup = server.output.map((l) => JSON.parse(l)).find((l) => l.msg === 'listening');
    expect(startup.services).toMatchObject({
      database: 'sqlite',
      llm: 'built-in offline engine',
      mail: 'stored outbox',
    });
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
