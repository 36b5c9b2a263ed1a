import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { LIMITS } from './limits.ts';

/**
 * Refuses bodies over `maxBytes` with 413 while reading: a declared Content-Length is checked before
 * any byte is read (Node's HTTP parser never reads past it, so the header is enough), a chunked body
 * is counted as it arrives. Paths for which `skip` is true read their own bodies with their own limits.
 * Registered for the methods that carry bodies only: GET and friends stay a route's direct call.
 */
export function bodyLimiter(
  options: { maxBytes?: number; skip?: (path: string) => boolean } = {},
): MiddlewareHandler<AppEnv> {
  const { maxBytes = LIMITS.jsonBodyBytes, skip = () => false } = options;
  const chunked = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  });
  return function limitBody(c, next) {
    if (skip(c.req.path)) return next();
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

/** The media type of a Content-Type, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string {
  const value = contentType ?? '';
  const semicolon = value.indexOf(';');
  return (semicolon >= 0 ? value.slice(0, semicolon) : value).trim().toLowerCase();
}

export const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/** A plain HTML form's encodings (`enctype`), which a browser posts as a page navigation. */
export function isFormContentType(contentType: string | undefined): boolean {
  return (FORM_TYPES as readonly string[]).includes(mediaType(contentType));
}

export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(value.trim());
}

export const JSON_ONLY_MESSAGE = 'The request body must be sent as application/json.';

/** A JSON route's guard: 415 for a body sent as anything but JSON. */
export const requireJson: MiddlewareHandler<AppEnv> = async function requireJson(c, next) {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', JSON_ONLY_MESSAGE);
  }
  await next();
};
