import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, startTestServer, type TestContext } from '../../test/support/test-app.ts';
import { createAppServer, requestTimeoutMs, SERVER_TIMEOUTS } from '../server.ts';

/** Sends raw bytes and reads everything until the server closes the connection. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

function parse(response: string) {
  const [head, body] = response.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body!) };
}

/** The app's own server (its edge, its request listener), with bounds short enough for a test. */
describe('what the HTTP server refuses below the app', () => {
  let t: TestContext;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    server = createAppServer(t.deps, t.app, { checkIntervalMs: 50 });
    server.requestTimeout = 300;
    server.headersTimeout = 300;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });
  const logged = () => t.logs.lines;

  const stalled = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;

  it('a body that stops arriving: 408 REQUEST_TIMEOUT in the envelope, with a request id, then closed', async () => {
    const response = parse(await exchange(port, stalled('/api/contact')));
    expect(response.status).toBe(408);
    expect(response.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(response.headers.connection).toBe('close');
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', message: expect.any(String), requestId },
    });
    expect(logged()).toContainEqual(expect.objectContaining({ requestId, status: 408 }));
  });

  it('under the AI prefix, in the AI envelope: 400 invalid_request, no-store', async () => {
    const response = parse(await exchange(port, stalled('/api/ai/refine')));
    expect(response.status).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
  });

  it("carries the request's own id: the caller's when sane (contract.md), else the edge's new one", async () => {
    const withId = (id: string) =>
      `POST /api/contact HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const kept = parse(await exchange(port, withId('caller-id.42')));
    expect(kept.headers['x-request-id']).toBe('caller-id.42');
    expect(kept.body.error.requestId).toBe('caller-id.42');
    const replaced = parse(await exchange(port, withId('not sane!')));
    const given = replaced.headers['x-request-id'];
    expect(given).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body.error.requestId).toBe(given);
    // The id of the request's own log line (written once the app gives up on the body), not another one.
    await vi.waitFor(() =>
      expect(logged()).toContainEqual(expect.objectContaining({ msg: 'request', requestId: given })),
    );
  });

  it('picks the envelope by the path the app routes (percent-decoded, dot segments, absolute form)', async () => {
    for (const target of ['/api/%61i/refine', 'http://x/api/ai/refine', '/api/x/../ai/refine']) {
      const response = parse(await exchange(port, stalled(target)));
      expect(response.status, target).toBe(400);
      expect(response.body, target).toEqual({
        error: { code: 'invalid_request', message: expect.any(String) },
      });
    }
    const backend = parse(await exchange(port, stalled('/api/ai/../contact')));
    expect(backend.status).toBe(408);
    expect(backend.body.error.code).toBe('REQUEST_TIMEOUT');
  });

  it("bytes that are not HTTP get Node's own bare 400, headers over 16 KiB its 431", async () => {
    expect(await exchange(port, 'HELLO THERE\r\n\r\n')).toBe(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
    );
    const huge = await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.startsWith('HTTP/1.1 431 ')).toBe(true);
  });
});

describe("the app server's request bound", () => {
  it('lies past the ticket upload bound, so the upload route answers a slow upload itself', async () => {
    expect(requestTimeoutMs(120_000)).toBe(120_000 + SERVER_TIMEOUTS.pastUploadMs);
    expect(requestTimeoutMs(1_000)).toBe(SERVER_TIMEOUTS.minRequestMs);
    const t = await startTestServer({ env: { UPLOAD_TIMEOUT_MS: '300000' } });
    try {
      const server = t.server.server as Server;
      expect(server.requestTimeout).toBe(300_000 + SERVER_TIMEOUTS.pastUploadMs);
      expect(server.listenerCount('clientError')).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('a request whose body the client broke off or sent malformed (the whole app)', () => {
  let t: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    t = await startTestServer({ env: { METRICS_API_SECRET: 'metrics-secret' } });
  });
  afterAll(() => t.close());

  const post = (id: string, rest: string) =>
    `POST /api/contact HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\n${rest}`;

  /** The app's lines for one request, once its request line is written. */
  async function linesOf(requestId: string) {
    for (let tries = 0; ; tries++) {
      const lines = t.logs.lines.filter((line) => line.requestId === requestId);
      if (lines.some((line) => line.msg === 'request')) return lines;
      if (tries > 2000) throw new Error(`no request line for ${requestId}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function countedStatuses(): Promise<Record<string, number>> {
    const text = await (
      await fetch(`${t.url}/metrics`, { headers: { Authorization: 'Bearer metrics-secret' } })
    ).text();
    const counts: Record<string, number> = {};
    for (const match of text.matchAll(
      /^http_requests_total\{[^}]*route="\/api\/contact"[^}]*status="(\d+)"[^}]*\} (\d+)/gm,
    )) {
      counts[match[1]!] = (counts[match[1]!] ?? 0) + Number(match[2]);
    }
    return counts;
  }

  it('an invalid chunk (an endless chunk extension): 413 on the wire, logged at info and counted as 413', async () => {
    const answer = await exchange(
      t.server.port,
      post('broken-chunk-1', `Transfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}`),
    );
    expect(answer.startsWith('HTTP/1.1 413 ')).toBe(true);
    const lines = await linesOf('broken-chunk-1');
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      status: 413,
      route: '/api/contact',
    });
    expect(lines.find((line) => line.msg === 'request body broken off or malformed')).toMatchObject({
      level: 30,
      status: 413,
    });
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('a malformed chunk size: 400 on the wire, logged and counted as 400', async () => {
    const answer = await exchange(
      t.server.port,
      post('broken-chunk-2', 'Transfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz\r\n'),
    );
    expect(answer.startsWith('HTTP/1.1 400 ')).toBe(true);
    const lines = await linesOf('broken-chunk-2');
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 400 });
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('a body the client broke off (it went away mid-body): logged as 400, never a 500', async () => {
    const reached = new Promise((resolve) => (t.server.server as Server).once('request', resolve));
    const socket = connect(t.server.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(post('broken-off-1', 'Content-Length: 100\r\n\r\n{"name":"Ana",'));
    // The request has reached the app (which reads its body) before the client goes.
    await reached;
    socket.destroy();
    const lines = await linesOf('broken-off-1');
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 400 });
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('a body stalled past the request timeout: 408 on the wire, logged and counted as 408', async () => {
    const server = t.server.server as Server;
    const bounds = [server.requestTimeout, server.headersTimeout] as const;
    server.requestTimeout = 200;
    server.headersTimeout = 200;
    try {
      const answer = await exchange(t.server.port, post('stalled-1', 'Content-Length: 100\r\n\r\n{"name":'));
      expect(answer.startsWith('HTTP/1.1 408 ')).toBe(true);
      const lines = await linesOf('stalled-1');
      expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 408 });
      expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    } finally {
      [server.requestTimeout, server.headersTimeout] = bounds;
    }
  });

  it('none of them is counted as a 500 in http_requests_total', async () => {
    const counts = await countedStatuses();
    expect(counts['500']).toBeUndefined();
    expect(counts).toMatchObject({ '400': 2, '408': 1, '413': 1 });
  });
});
