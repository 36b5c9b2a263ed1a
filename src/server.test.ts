import { Agent, get as httpGet, type Server } from 'node:http';
import { createRoute, z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../test/support/test-app.ts';
import { createRouter } from './http/openapi.ts';
import { sseResponse } from './http/sse.ts';

/** A slow route and an endless stream, to watch shutdown handle both; `onSlow` hears a slow request start. */
function slowRoutes(onSlow: () => void = () => {}) {
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
      onSlow();
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

/** A one-shot event a test can wait for. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

/** Reads a response's text to its end; `reached` resolves once `marker` has arrived. */
function readUntil(response: Response, marker: string) {
  const seen = signal();
  const all = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(marker)) seen.fire();
    }
    return text + decoder.decode();
  })();
  // A stream that ends (or fails) without the marker: stop waiting; the checks on `all` say why.
  void all.then(seen.fire, seen.fire);
  return { reached: seen.fired, all };
}

let ctx: (TestContext & { url: string; server: { shutdown(): Promise<void> } }) | null = null;
afterEach(async () => {
  await ctx?.database.dispose().catch(() => {});
  ctx = null;
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests, ends open streams, then refuses new connections', async () => {
    const slowStarted = signal();
    ctx = await startTestServer({
      env: { SHUTDOWN_TIMEOUT_MS: '5000' },
      extend: (app) => app.route('/', slowRoutes(slowStarted.fire)),
    });
    const url = ctx.url;
    const inFlight = fetch(`${url}/test/slow?ms=300`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    const stream = await fetch(`${url}/test/stream`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // Shut down only once both are under way: the slow request in its handler, the stream past its
    // first event (and so waiting for the signal), rather than after a guessed pause.
    const streamText = readUntil(stream, 'event: hello');
    await slowStarted.fired;
    await streamText.reached;

    const started = Date.now();
    const streamEnded = streamText.all.then(() => Date.now());
    await ctx.server.shutdown();
    expect(await inFlight).toEqual({ status: 200, body: { done: true } });
    const text = await streamText.all;
    expect(text).toContain('event: hello');
    expect(text).toContain('event: bye');
    // The stream ended on the signal, not by waiting out the whole bound.
    expect((await streamEnded) - started).toBeLessThan(5000);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('closes a keep-alive connection once its request is answered, not after the keep-alive timeout', async () => {
    const slowStarted = signal();
    const running = await startTestServer({
      env: { SHUTDOWN_TIMEOUT_MS: '60000' },
      extend: (app) => app.route('/', slowRoutes(slowStarted.fire)),
    });
    ctx = running;
    // Behind a load balancer the keep-alive timeout is set above the balancer's idle timeout. The
    // shutdown resolves only once every connection is closed: before, that was after this timeout (or
    // the bound), far past the test's own timeout.
    (running.server.server as Server).keepAliveTimeout = 120_000;
    const agent = new Agent({ keepAlive: true });
    try {
      const status = new Promise<number>((resolve, reject) => {
        httpGet(`${running.url}/test/slow?ms=300`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject);
      });
      await slowStarted.fired;
      await running.server.shutdown();
      expect(await status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('the shutdown bound', () => {
  it('requests and running jobs share SHUTDOWN_TIMEOUT_MS: a slow request and a hung job do not add up', async () => {
    // Long enough that a loaded machine's late timers stay well inside the margin below.
    const bound = 2500;
    const slowStarted = signal();
    ctx = await startTestServer({
      env: { SHUTDOWN_TIMEOUT_MS: String(bound) },
      extend: (app) => app.route('/', slowRoutes(slowStarted.fire)),
    });
    const jobStarted = signal();
    ctx.deps.worker.register({
      name: 'test-hung',
      maxAttempts: 1,
      handle: () => {
        jobStarted.fire();
        return new Promise<void>(() => {});
      },
    });
    await ctx.deps.jobs.enqueue('test-hung', {});
    ctx.deps.worker.start(); // test apps run no workers of their own
    await jobStarted.fired;
    const slow = fetch(`${ctx.url}/test/slow?ms=60000`).catch(() => 'cut');
    await slowStarted.fired;
    const started = Date.now();
    await ctx.server.shutdown();
    // Each waits out the bound at the same time: about one bound in all (one after the other would
    // be two), with half a bound to spare for a loaded machine.
    expect(Date.now() - started).toBeLessThan(bound * 1.5);
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
    const { spawnServer } = await import('../test/support/process.ts');
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
