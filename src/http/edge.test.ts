import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Dependencies } from '../dependencies.ts';
import { type Dispatch, withEdge } from './edge.ts';
import type { RequestEnv } from './env.ts';
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
      deps: deps as unknown as Dependencies,
      allowedOrigins: new Set(['https://agency.example']),
      headersFor: (path) => (path.startsWith('/api/ai/') ? { 'cache-control': 'no-store' } : undefined),
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
