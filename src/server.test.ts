import { Agent, get as httpGet, type Server } from 'node:http';
import { connect } from 'node:net';
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

/** Splits a byte stream of HTTP/1.1 responses (Content-Length or chunked bodies) into responses. */
function splitResponses(raw: Buffer) {
  const responses: { status: number; headers: Record<string, string>; body: string }[] = [];
  let at = 0;
  while (at < raw.length) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`a response head was cut: ${raw.subarray(at).toString()}`);
    const [statusLine, ...lines] = raw.subarray(at, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    at = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const sizeEnd = raw.indexOf('\r\n', at);
        const size = Number.parseInt(raw.subarray(at, sizeEnd).toString(), 16);
        at = sizeEnd + 2 + size + 2;
        if (size === 0) break;
        parts.push(raw.subarray(sizeEnd + 2, sizeEnd + 2 + size));
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = raw.subarray(at, at + length);
      at += length;
    }
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') });
  }
  return responses;
}

describe('HTTP/1.1 pipelining', () => {
  it('answers every request sent back to back on one connection, in the order sent', async () => {
    const firstHeld = signal();
    const releaseFirst = signal();
    const gate = createRoute({
      method: 'get',
      path: '/test/gate',
      responses: { 200: { description: 'held until released' } },
    });
    const running = await startTestServer({
      extend: (app) =>
        app.route(
          '/',
          createRouter().openapi(gate, async (c) => {
            firstHeld.fire();
            await releaseFirst.fired;
            return c.json({ released: true }, 200);
          }),
        ),
    });
    ctx = running;
    const requests = [
      // Held until every later request has been answered by the app: its answer is ready last.
      'GET /test/gate HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-1\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-2\r\n\r\n',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-3\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      'GET /api/leads/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-4\r\n\r\n',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-5\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{"n\r\n8\r\name":"A"\r\n1\r\n}\r\n0\r\n\r\n',
      'DELETE /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-6\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipe-7\r\nConnection: close\r\n\r\n',
    ];
    const received: Buffer[] = [];
    const socket = connect(running.server.port, '127.0.0.1');
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // All of it at once, in pieces that do not respect request boundaries.
    const bytes = Buffer.from(requests.join(''));
    for (let at = 0; at < bytes.length; at += 37) socket.write(bytes.subarray(at, at + 37));

    await firstHeld.fired;
    // Every later request is handled (its log line written) while the first is still held.
    const answered = () =>
      new Set(running.logs.lines.filter((line) => line.msg === 'request').map((line) => line.requestId));
    for (
      let tries = 0;
      !['pipe-2', 'pipe-3', 'pipe-4', 'pipe-5', 'pipe-6', 'pipe-7'].every((id) => answered().has(id));
      tries++
    ) {
      if (tries > 1000) throw new Error('the pipelined requests were not handled');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    releaseFirst.fire();
    await closed;

    const responses = splitResponses(Buffer.concat(received));
    expect(responses.map((r) => r.headers['x-request-id'])).toEqual(requests.map((_, i) => `pipe-${i + 1}`));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400, 404, 400, 405, 200]);
    expect(JSON.parse(responses[0]!.body)).toEqual({ released: true });
    expect(JSON.parse(responses[1]!.body)).toEqual({ status: 'OK' });
    expect(JSON.parse(responses[2]!.body).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      requestId: 'pipe-3',
    });
    expect(JSON.parse(responses[3]!.body).error).toMatchObject({ code: 'NOT_FOUND', requestId: 'pipe-4' });
    expect(JSON.parse(responses[4]!.body).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      requestId: 'pipe-5',
    });
    expect(responses[5]!.headers.allow).toBe('GET, OPTIONS');
    expect(JSON.parse(responses[6]!.body)).toMatchObject({ name: 'agency-backend' });
    expect(responses[6]!.headers.connection).toBe('close');
  });
});
