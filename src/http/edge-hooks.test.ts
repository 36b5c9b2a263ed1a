import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../test/support/test-app.ts';
import type { EdgeHook } from './edge-hooks.ts';
import { ApiError } from './errors.ts';

/**
 * The extension point through the whole app: one registered hook reaches every request, however it
 * is answered (a route, a 404, a 405, a preflight, an error envelope), on the real server and in-process.
 */
describe('edge hooks in the app', () => {
  const statuses: number[] = [];
  const hooks: EdgeHook[] = [
    {
      name: 'served-by',
      onRequest(request) {
        request.responseHeaders['x-served-by'] = 'hook';
        return undefined;
      },
      onResponse: (_request, status) => void statuses.push(status),
    },
    {
      name: 'closed-area',
      onRequest: (request) =>
        request.request.headers.get('x-closed') === '1'
          ? request.reject(
              new ApiError('RATE_LIMITED', 'Closed for the test.', { headers: { 'Retry-After': '7' } }),
            )
          : undefined,
    },
  ];
  let t: TestContext & { url: string };
  beforeAll(async () => {
    t = await startTestServer({ edgeHooks: hooks, env: { SITE_ORIGIN: 'https://agency.example' } });
  });
  afterAll(() => t.close());

  const answers = (init?: RequestInit) => ({
    health: [`${t.url}/health`, init],
    missing: [`${t.url}/no-such-path`, init],
    wrongMethod: [`${t.url}/health`, { ...init, method: 'DELETE' }],
    preflight: [
      `${t.url}/api/contact`,
      {
        ...init,
        method: 'OPTIONS',
        headers: {
          ...init?.headers,
          Origin: 'https://agency.example',
          'Access-Control-Request-Method': 'POST',
        },
      },
    ],
    invalid: [
      `${t.url}/api/contact`,
      {
        ...init,
        method: 'POST',
        headers: { ...init?.headers, 'Content-Type': 'application/json' },
        body: '{',
      },
    ],
    ai: [`${t.url}/api/ai/search-test`, init],
  });

  it('adds its header to every answer, on the server and in-process', async () => {
    for (const [name, [url, init]] of Object.entries(answers())) {
      const server = await fetch(url as string, init as RequestInit);
      expect(server.headers.get('x-served-by'), name).toBe('hook');
      const inProcess = await t.app.request(url as string, init as RequestInit);
      expect(inProcess.headers.get('x-served-by'), name).toBe('hook');
    }
    expect(statuses).toContain(404);
    expect(statuses).toContain(405);
  });

  it('answers instead of the app, in the envelope of the path, with the edge headers and log line', async () => {
    const closed = { headers: { 'x-closed': '1', 'X-Request-Id': 'closed-1' } };
    const backend = await fetch(`${t.url}/api/contact`, { ...closed, method: 'POST' });
    expect(backend.status).toBe(429);
    expect(backend.headers.get('retry-after')).toBe('7');
    expect(backend.headers.get('x-request-id')).toBe('closed-1');
    expect(backend.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await backend.json()).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: 'Closed for the test.', requestId: 'closed-1' },
    });
    const ai = await fetch(`${t.url}/api/ai/search-test?q=x`, closed);
    expect(ai.status).toBe(429);
    expect(ai.headers.get('cache-control')).toBe('no-store');
    expect(await ai.json()).toEqual({ error: { code: 'rate_limited', message: 'Closed for the test.' } });
    expect(t.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'request', requestId: 'closed-1', status: 429, route: '/api/contact' }),
    );
  });
});

describe('an edge hook around the request', () => {
  it('runs the rest of it inside: the other hooks, the handler, the answer and onResponse see its context', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: string[] = [];
    const hooks: EdgeHook[] = [
      {
        name: 'outer',
        around: (request, next) => context.run(`ctx-${request.requestId}`, next),
        onResponse: () => void seen.push(`outer.onResponse ${context.getStore()}`),
      },
      {
        name: 'inner',
        around: (_request, next) => {
          seen.push(`inner.around ${context.getStore()}`);
          return next();
        },
        onRequest: () => void seen.push(`inner.onRequest ${context.getStore()}`),
      },
    ];
    const t = await startTestServer({
      edgeHooks: hooks,
      extend: (app) =>
        app.get('/test/context', async (c) => {
          await new Promise((resolve) => setImmediate(resolve));
          return c.json({ context: context.getStore() ?? null });
        }),
    });
    try {
      const answer = await fetch(`${t.url}/test/context`, { headers: { 'X-Request-Id': 'r1' } });
      expect(await answer.json()).toEqual({ context: 'ctx-r1' });
      expect(seen).toEqual(['inner.around ctx-r1', 'inner.onRequest ctx-r1', 'outer.onResponse ctx-r1']);
      expect(context.getStore()).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
