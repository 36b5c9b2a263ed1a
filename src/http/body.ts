import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { LIMITS } from './limits.ts';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses bodies over `maxBytes` with 413 while reading: a declared Content-Length is checked before
 * any byte is read (Node's HTTP parser never reads past it, so the header is enough), a chunked body
 * is counted as it arrives. Returns a step to run in place of `next()`.
 */
export function bodyLimiter(maxBytes: number = LIMITS.jsonBodyBytes) {
  const chunked = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  });
  return function limitBody(c: Context<AppEnv>, next: Next): Promise<unknown> {
    // GET and friends carry no body; asking `c.req.raw` for one would build a full Request object.
    if (BODYLESS.has(c.req.method)) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
      return next();
    }
    return chunked(c, next);
  };
}

function tooLarge(maxBytes: number): ApiError {
  // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, {
    headers: { Connection: 'close' },
  });
}

export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(value.trim());
}

/** A JSON route's guard: 415 for a body sent as anything but JSON. */
export const requireJson: MiddlewareHandler<AppEnv> = async function requireJson(c, next) {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as application/json.');
  }
  await next();
};
