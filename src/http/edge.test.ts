import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Infrastructure } from '../infrastructure.ts';
import { type Dispatch, withEdge } from './edge.ts';
import type { EdgeHook, EdgeRequest } from './edge-hooks.ts';
import type { RequestEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { PathRules } from './paths.ts';
import { RouteTable } from './route-table.ts';

/** The edge in-process (no Node response): its headers go onto whatever response the app returned. */
describe('withEdge in-process', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const observed: unknown[][] = [];
  const deps = { logger, metrics: { observeRequest: (...args: unknown[]) => observed.push(args) } };
  const routes = new RouteTable([
    { method: 'GET', path: '/redirect' },
    { method: 'GET', path: '/api/ai/thing' },
    { method: 'GET', path: '/items/:id' },
  ]);
  const edgeOf = (dispatch: Dispatch) =>
    withEdge(dispatch, {
      deps: deps as unknown as Infrastructure,
      allowedOrigins: new Set(['https://agency.example']),
      paths: new PathRules([{ prefix: '/api/ai/', headers: { 'cache-control': 'no-store' } }]),
      routes: () => routes,
    });

  it('adds the headers even to a response whose headers are immutable (a redirect)', async () => {
    const fetch = edgeOf(() => Response.redirect('https://agency.example/elsewhere', 302));
    const res = await fetch(
      new Request('http://x/redirect', { headers: { Origin: 'https://agency.example' } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://agency.example/elsewhere');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://agency.example');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('keeps a handler’s own header, combines Vary, adds per-path headers', async () => {
    const fetch = edgeOf(
      () => new Response('{}', { headers: { 'X-Request-Id': 'mine', Vary: 'Accept-Encoding' } }),
    );
    const res = await fetch(
      new Request('http://x/api/ai/thing', { headers: { 'X-Request-Id': 'caller-1' } }),
    );
    expect(res.headers.get('x-request-id')).toBe('mine');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('hands the app the request environment, makes the child logger only on use, logs one line', async () => {
    let seen: RequestEnv | undefined;
    const fetch = edgeOf((_request, env) => {
      seen = env as RequestEnv;
      return new Response(null, { status: 204 });
    });
    await fetch(new Request('http://x/items/7', { headers: { 'X-Request-Id': 'env-check' } }));
    expect(seen?.requestId).toBe('env-check');
    expect(seen?.deps).toBe(deps);
    seen?.logger.info('from the handler');
    expect(lines.find((l) => l.msg === 'from the handler')).toMatchObject({ requestId: 'env-check' });
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'env-check')).toMatchObject({
      method: 'GET',
      route: '/items/:id',
      status: 204,
    });
    expect(observed.at(-1)?.slice(0, 3)).toEqual(['GET', '/items/:id', 204]);
  });

  it('logs a 500 line when the app itself rejects, and passes the rejection on', async () => {
    const fetch = edgeOf(() => Promise.reject(new Error('error handler failed')));
    await expect(
      fetch(new Request('http://x/items/9', { headers: { 'X-Request-Id': 'rejected' } })),
    ).rejects.toThrow('error handler failed');
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'rejected')).toMatchObject({
      route: '/items/:id',
      status: 500,
    });
  });
});

/** The extension point: hooks run for every request, in order, and may answer it themselves. */
describe('withEdge with hooks', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const deps = { logger, metrics: { observeRequest: () => {} } };
  const routes = new RouteTable([{ method: 'GET', path: '/items/:id' }]);
  const calls: string[] = [];
  const edgeOf = (hooks: EdgeHook[], dispatch: Dispatch = () => new Response('app')) =>
    withEdge(dispatch, {
      deps: deps as unknown as Infrastructure,
      allowedOrigins: new Set(),
      paths: new PathRules([
        {
          prefix: '/api/ai/',
          errorEnvelope: (error) => ({ status: 400, body: { ai: error.code }, headers: {} }),
        },
      ]),
      routes: () => routes,
      hooks,
    });
  const recorder = (name: string, answer?: (request: EdgeRequest) => Response | undefined): EdgeHook => ({
    name,
    onRequest(request) {
      calls.push(`${name}:request`);
      return answer?.(request);
    },
    onResponse(_request, status) {
      calls.push(`${name}:response:${status}`);
    },
  });

  it('runs each hook before the app and after the answer (the last one first); headers they add are sent', async () => {
    calls.length = 0;
    const fetch = edgeOf([
      {
        name: 'header',
        onRequest(request) {
          request.responseHeaders['x-served-by'] = 'edge-test';
          return undefined;
        },
      },
      recorder('a'),
      recorder('b'),
    ]);
    const res = await fetch(new Request('http://x/items/1'));
    expect(await res.text()).toBe('app');
    expect(res.headers.get('x-served-by')).toBe('edge-test');
    expect(calls).toEqual(['a:request', 'b:request', 'b:response:200', 'a:response:200']);
  });

  it('a hook may answer (in the path’s envelope): later hooks and the app do not run; the answer is logged', async () => {
    calls.length = 0;
    let appRan = false;
    const fetch = edgeOf(
      [
        recorder('a'),
        recorder('auth', (request) => request.reject(new ApiError('UNAUTHORIZED', 'no'))),
        recorder('c'),
      ],
      () => {
        appRan = true;
        return new Response('app');
      },
    );
    const backend = await fetch(new Request('http://x/items/1', { headers: { 'X-Request-Id': 'hook-401' } }));
    expect(backend.status).toBe(401);
    expect(backend.headers.get('x-request-id')).toBe('hook-401');
    expect(await backend.json()).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'no', requestId: 'hook-401' },
    });
    expect(appRan).toBe(false);
    expect(calls).toEqual(['a:request', 'auth:request', 'auth:response:401', 'a:response:401']);
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'hook-401')).toMatchObject({
      status: 401,
    });
    const ai = await fetch(new Request('http://x/api/ai/x'));
    expect(await ai.json()).toEqual({ ai: 'UNAUTHORIZED' });
  });

  it('an asynchronous hook is waited for; one that throws fails the request with a logged 500', async () => {
    const fetch = edgeOf([
      {
        name: 'async',
        onRequest: async (request) =>
          request.path === '/items/2' ? request.reject(new ApiError('NOT_FOUND', 'gone')) : undefined,
      },
    ]);
    expect((await fetch(new Request('http://x/items/1'))).status).toBe(200);
    expect((await fetch(new Request('http://x/items/2'))).status).toBe(404);
    const failing = edgeOf([
      {
        name: 'broken',
        onRequest: () => {
          throw new Error('hook broke');
        },
      },
    ]);
    await expect(async () =>
      failing(new Request('http://x/items/3', { headers: { 'X-Request-Id': 'hook-threw' } })),
    ).rejects.toThrow('hook broke');
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'hook-threw')).toMatchObject({
      status: 500,
    });
  });
});
