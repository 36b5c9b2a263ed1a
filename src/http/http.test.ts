import { request as httpRequest } from 'node:http';
import { createRoute, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../test/support/test-app.ts';
import { requireJson } from './body.ts';
import { LIMITS } from './limits.ts';
import { createRouter } from './openapi.ts';

/** A JSON route like the features', to exercise the shared body handling. */
function echoRoutes() {
  const route = createRoute({
    method: 'post',
    path: '/test/echo',
    middleware: [requireJson] as const,
    request: {
      body: {
        required: true,
        content: { 'application/json': { schema: z.object({ name: z.string().max(10) }) } },
      },
    },
    responses: { 200: { description: 'echo' } },
  });
  return createRouter().openapi(route, (c) => c.json({ name: c.req.valid('json').name }, 200));
}

let ctx: TestContext & { url: string };

beforeAll(async () => {
  ctx = await startTestServer({
    env: { SITE_ORIGIN: 'https://agency.example' },
    extend: (app) => app.route('/', echoRoutes()),
  });
});
afterAll(() => ctx.close());

const get = (path: string, init?: RequestInit) => fetch(`${ctx.url}${path}`, init);

function expectEnvelope(body: unknown, code: string) {
  expect(body).toMatchObject({
    success: false,
    error: { code, message: expect.any(String), requestId: expect.any(String) },
  });
}

describe('health', () => {
  it('GET / names the service with its version and an ISO timestamp', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; version: string; timestamp: string };
    expect(body.name).toBe('agency-backend');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it('GET /health answers OK', async () => {
    const res = await get('/health');
    expect(await res.json()).toEqual({ status: 'OK' });
  });
});

describe('request id', () => {
  it('keeps a sane caller id and replaces hostile ones', async () => {
    expect(
      (await get('/health', { headers: { 'X-Request-Id': 'abc.DEF_123-x' } })).headers.get('x-request-id'),
    ).toBe('abc.DEF_123-x');
    for (const hostile of ['a'.repeat(129), 'a b', 'x'.repeat(10_000), '<script>']) {
      const id = (await get('/health', { headers: { 'X-Request-Id': hostile } })).headers.get('x-request-id');
      expect(id).not.toBe(hostile);
      expect(id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    }
  });

  it('survives a CRLF injection attempt on the raw socket', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${ctx.url}/health`, { headers: { 'X-Request-Id': 'ok' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const raw = await rawRequest(
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\rb\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await get('/health')).status).toBe(200);
  });

  it('logs one line per request with id, route, status and duration', async () => {
    await get('/health', { headers: { 'X-Request-Id': 'log-line-check' } });
    const line = ctx.logs.lines.find((l) => l.requestId === 'log-line-check' && l.msg === 'request');
    expect(line).toMatchObject({
      method: 'GET',
      route: '/health',
      status: 200,
      durationMs: expect.any(Number),
    });
  });

  it('logs the matched route pattern, and no route for unknown paths and wrong methods', async () => {
    await get('/api/leads/no-such-lead', { headers: { 'X-Request-Id': 'route-param' } });
    await get('/nowhere', { headers: { 'X-Request-Id': 'route-none' } });
    await get('/health', { method: 'DELETE', headers: { 'X-Request-Id': 'route-405' } });
    const lineOf = (id: string) => ctx.logs.lines.find((l) => l.requestId === id && l.msg === 'request');
    expect(lineOf('route-param')).toMatchObject({ route: '/api/leads/:id', status: 404 });
    expect(lineOf('route-none')).toMatchObject({ route: null, status: 404 });
    expect(lineOf('route-405')).toMatchObject({ route: null, status: 405 });
  });
});

describe('CORS', () => {
  it('echoes an allowed origin with Vary: Origin and never a wildcard', async () => {
    for (const origin of ['https://agency.example', 'https://www.agency.example', 'http://localhost:3000']) {
      const res = await get('/health', { headers: { Origin: origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toContain('Origin');
    }
    const other = await get('/health', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toContain('Origin');
  });

  it('allows credentials on the analytics track path only (sendBeacon of a JSON Blob), never elsewhere', async () => {
    const preflight = (path: string) =>
      get(path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://agency.example', 'Access-Control-Request-Method': 'POST' },
      });
    const track = await preflight('/api/analytics/track');
    expect(track.status).toBe(204);
    expect(track.headers.get('access-control-allow-origin')).toBe('https://agency.example');
    expect(track.headers.get('access-control-allow-credentials')).toBe('true');
    for (const path of ['/api/contact', '/api/leads', '/api/ai/recommend-plan', '/api/support/send']) {
      expect((await preflight(path)).headers.get('access-control-allow-credentials'), path).toBeNull();
    }
    const other = await get('/api/analytics/track', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers preflights with 204, 405 for a method the path lacks, 404 for unknown paths', async () => {
    const ok = await get('/test/echo', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agency.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://agency.example');
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    const wrong = await get('/test/echo', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agency.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    for (const method of ['OPTIONS', 'post']) {
      const asked = await get('/test/echo', {
        method: 'OPTIONS',
        headers: { Origin: 'https://agency.example', 'Access-Control-Request-Method': method },
      });
      expect(asked.status, method).toBe(405);
    }
    expect((await get('/nowhere', { method: 'OPTIONS' })).status).toBe(404);
  });
});

describe("edge headers on the real server (written with the handler's own in one writeHead)", () => {
  it('every /api/ai/* answer is no-store: 200, 400, 404, 405 and preflights, with the request id', async () => {
    const origin = { Origin: 'https://agency.example' };
    const answers = [
      await get('/api/ai/recommend-plan', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...origin },
        body: JSON.stringify({ message: 'A website for our bakery' }),
      }),
      await get('/api/ai/recommend-plan', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      await get('/api/ai/nothing-here'),
      await get('/api/ai/recommend-plan'),
      await get('/api/ai/recommend-plan', {
        method: 'OPTIONS',
        headers: { ...origin, 'Access-Control-Request-Method': 'POST' },
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 404, 405, 204]);
    for (const res of answers) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
      expect(res.headers.get('vary')).toBe('Origin');
    }
    expect(answers[0]!.headers.get('access-control-allow-origin')).toBe('https://agency.example');
    expect(answers[3]!.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it("a handler's own headers stay, each edge header is sent once", async () => {
    const res = await get('/admin/login');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect((await get('/health')).headers.get('cache-control')).toBeNull();
  });
});

describe('routing errors', () => {
  it('404 for unknown paths and 405 with Allow for wrong methods, in the envelope', async () => {
    const missing = await get('/no/such/path');
    expect(missing.status).toBe(404);
    expectEnvelope(await missing.json(), 'NOT_FOUND');
    const wrong = await get('/health', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, OPTIONS');
    const body = (await wrong.json()) as { error: { requestId: string } };
    expectEnvelope(body, 'METHOD_NOT_ALLOWED');
    expect(body.error.requestId).toBe(wrong.headers.get('x-request-id'));
  });

  it('a trailing slash is another path: 404 (not a 405 whose Allow lists the method refused)', async () => {
    for (const [path, method] of [
      ['/health/', 'GET'],
      ['/api/leads/', 'GET'],
      ['/api/leads/', 'POST'],
      ['/api/ai/refine/', 'POST'],
      ['/api/ai/search-test/?q=x', 'GET'],
    ] as const) {
      const res = await get(path, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('allow'), `${method} ${path}`).toBeNull();
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code).toBe(path.startsWith('/api/ai/') ? 'not_found' : 'NOT_FOUND');
    }
    const preflight = await get('/api/ai/refine/', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agency.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(404);
  });
});

describe('JSON bodies', () => {
  const post = (body: BodyInit, contentType = 'application/json') =>
    get('/test/echo', { method: 'POST', body, headers: { 'Content-Type': contentType } });

  it('accepts a valid body', async () => {
    const res = await post(JSON.stringify({ name: 'Ana', extra: true }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'Ana' });
  });

  it.each([
    ['malformed JSON', '{"name":', 400, 'VALIDATION_ERROR'],
    ['an array', '[1,2]', 400, 'VALIDATION_ERROR'],
    ['a string', '"hello"', 400, 'VALIDATION_ERROR'],
    ['null', 'null', 400, 'VALIDATION_ERROR'],
    ['a wrong type', '{"name":42}', 400, 'VALIDATION_ERROR'],
    ['a field over its limit', '{"name":"abcdefghijk"}', 400, 'VALIDATION_ERROR'],
  ])('refuses %s', async (_label, body, status, code) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expectEnvelope(await res.json(), code);
  });

  it('refuses a non-JSON content type with 415', async () => {
    const res = await post('name=Ana', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    expectEnvelope(await res.json(), 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a declared oversized body with 413 before reading it', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(LIMITS.jsonBodyBytes + 1) }));
    expect(res.status).toBe(413);
    expectEnvelope(await res.json(), 'PAYLOAD_TOO_LARGE');
  });

  it('cuts a chunked body at the limit while it streams, without waiting for its end', async () => {
    // One byte past the limit and never ended: a 413 can only come from counting as the body arrives.
    // (A client still writing while the server answers and closes would race that close with an EPIPE.)
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${ctx.url}/test/echo`,
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part: string) => {
            text += part;
          });
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: text });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      for (let sent = 0; sent < LIMITS.jsonBodyBytes; sent += chunk.length) req.write(chunk);
      req.write('a');
    });
    expect(status).toBe(413);
    expectEnvelope(JSON.parse(body), 'PAYLOAD_TOO_LARGE');
    expect((await get('/health')).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves the generated document and a docs page', async () => {
    const doc = (await (await get('/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/health');
    const docs = await get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    expect(await docs.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await get('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('declares the secret each guarded route needs, as a security scheme the document defines', async () => {
    const doc = (await (await get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const guarded: [string, string, string][] = [
      ['/api/leads/lookup', 'get', 'ChatApiKey'],
      ['/api/chat/stream', 'post', 'ChatApiKey'],
      ['/api/posts/cache', 'delete', 'CacheApiKey'],
      ['/api/posts/cache/clear', 'post', 'CacheApiKey'],
      ['/metrics', 'get', 'MetricsBearer'],
      ['/admin/api/summary', 'get', 'AdminApiKey'],
    ];
    for (const [path, method, scheme] of guarded) {
      const schemes = (doc.paths[path]?.[method]?.security ?? []).flatMap((s) => Object.keys(s));
      expect(schemes, `${method} ${path}`).toContain(scheme);
      expect(doc.components.securitySchemes[scheme], scheme).toBeDefined();
    }
  });
});

function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    import('node:net').then(({ connect }) => {
      const url = new URL(ctx.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.end(text));
      let data = '';
      socket.on('data', (d) => {
        data += d.toString();
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  });
}
