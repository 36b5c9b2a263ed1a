import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env.ts';

/** The backend error codes of contract.md and their HTTP statuses (exhaustive). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  CAPTCHA_FAILED: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** A request body that did not arrive in time (a stalled or endless upload). */
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  EXTERNAL_SERVICE_ERROR: 502,
  NOT_CONFIGURED: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; requestId: string };
}

/** The one error type of the backend routes; `onError` turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export function errorEnvelope(code: ErrorCode, message: string, requestId: string): ErrorEnvelope {
  return { success: false, error: { code, message, requestId } };
}

/** An error answer in some envelope, before it becomes a response. */
export interface ErrorAnswer {
  status: ContentfulStatusCode;
  body: object;
  headers: Readonly<Record<string, string>>;
}

/**
 * A path's error envelope: what its answers to an `ApiError` look like. Also used where no Hono
 * context exists (the edge's hooks, the server's answer to a request that never arrived).
 */
export type ErrorEnvelopeOf = (error: ApiError, requestId: string) => ErrorAnswer;

/** The backend envelope of contract.md: `{"success":false,"error":{"code","message","requestId"}}`. */
export const backendEnvelope: ErrorEnvelopeOf = (error, requestId) => {
  const body = errorEnvelope(error.code, error.message, requestId);
  if (error.details) Object.assign(body.error, error.details);
  return { status: error.status, body, headers: error.headers };
};

export function sendError(
  c: Context<AppEnv>,
  error: ApiError,
  envelope: ErrorEnvelopeOf = backendEnvelope,
): Response {
  const { status, body, headers } = envelope(error, c.env.requestId);
  for (const name in headers) c.header(name, headers[name]);
  return c.json(body, status);
}

/**
 * Awaits a route's call into its feature logic and rethrows what it failed with through `toApiError`,
 * the route's map from its feature's domain errors to the envelope (anything it does not know, it
 * returns unchanged). Logic below the routes knows no status code or header.
 */
export async function mapErrors<T>(work: Promise<T>, toApiError: (error: unknown) => unknown): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw toApiError(error);
  }
}
