import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { LIMITS } from './limits.ts';

/**
 * Refuses bodies over `maxBytes` with 413 while reading: a declared Content-Length is checked before
 * any byte is read, a chunked body is counted as it arrives. Paths in `skip` read their own bodies
 * with their own limits (multipart uploads).
 */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function limitBody(options: { maxBytes?: number; skip?: (path: string) => boolean } = {}) {
  const maxBytes = options.maxBytes ?? LIMITS.jsonBodyBytes;
  const limiter = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
      throw new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, {
        headers: { Connection: 'close' },
      });
    },
  });
  const middleware: MiddlewareHandler<AppEnv> = async function limitBodyMiddleware(c, next) {
    // GET and friends carry no body; asking `c.req.raw` for one would build a full Request object.
    if (BODYLESS.has(c.req.method) || options.skip?.(c.req.path)) return next();
    // A declared length is enforced by Node's HTTP parser (it never reads past it), so checking the
    // header is enough and saves wrapping the body; chunked bodies are counted as they arrive.
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxBytes) return limiter(c, next);
      return next();
    }
    return limiter(c, next);
  };
  return middleware;
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
