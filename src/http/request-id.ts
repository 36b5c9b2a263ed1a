import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Accepts the caller's `X-Request-Id` only when it is sane; otherwise makes a new one. */
export function requestId(options: { headerName?: string } = {}): MiddlewareHandler<AppEnv> {
  const headerName = options.headerName ?? 'X-Request-Id';
  return async function requestIdMiddleware(c, next) {
    const incoming = c.req.header(headerName);
    const id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', id);
    // Set before the handler runs: Hono copies prepared headers onto every response built through
    // the context, and touching `c.res` afterwards would cost a third of the throughput.
    c.header(headerName, id);
    await next();
  };
}
