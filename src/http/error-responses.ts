import { z } from '@hono/zod-openapi';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/** The backend error envelope as an OpenAPI schema. */
export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z
        .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
        .openapi({ example: 'VALIDATION_ERROR' }),
      message: z.string().openapi({ example: 'url: The URL is not a valid absolute URL.' }),
      requestId: z.string().openapi({ example: '5f0c8a3e-6a8e-4d0f-9a53-0f2b9d1c7e11' }),
    }),
  })
  .openapi('ErrorEnvelope');

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR: the request is malformed or breaks a limit',
  401: 'UNAUTHORIZED: missing or wrong header secret',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body must be application/json',
  429: 'RATE_LIMITED, with Retry-After',
  502: 'EXTERNAL_SERVICE_ERROR: an outside service failed',
  503: 'NOT_CONFIGURED: the outside service this route needs is not configured (or, with Retry-After, the database is briefly unavailable)',
};

const header = (description: string, example: string) => ({
  description,
  schema: { type: 'string' as const, example },
});

/**
 * The response headers of a rate-limited route, on its successes and its 429s
 * (draft-ietf-httpapi-ratelimit-headers-10, src/http/rate-limit-fields.ts).
 */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header(
    'The limit this route counts against: quota `q` requests per window `w` seconds, per client IP (draft-ietf-httpapi-ratelimit-headers-10).',
    '"contact";q=10;w=3600',
  ),
  RateLimit: header(
    'What is left of it: `r` requests remaining, the window resets in `t` seconds.',
    '"contact";r=7;t=1834',
  ),
};

/** A 429's headers: when to try again, and the limit that was reached. */
export const RATE_LIMITED_HEADERS = {
  'Retry-After': header('Seconds to wait before trying again.', '1834'),
  ...RATE_LIMIT_HEADERS,
};

type ErrorResponseEntries = Record<
  number,
  {
    description: string;
    content: { 'application/json': { schema: typeof ErrorEnvelopeSchema } };
    headers?: typeof RATE_LIMITED_HEADERS;
  }
>;

/**
 * OpenAPI `responses` entries with the backend envelope: `errorResponses(400, 415)` with the standard
 * descriptions, or `errorResponses({ 409: 'CONFLICT: …' })` with route-specific ones.
 */
export function errorResponses(...statuses: (number | Record<number, string>)[]): ErrorResponseEntries {
  const entries: [number, string][] = statuses.flatMap((item) =>
    typeof item === 'number'
      ? [[item, DESCRIPTIONS[item] ?? 'Error'] as [number, string]]
      : Object.entries(item).map(
          ([status, description]) => [Number(status), description] as [number, string],
        ),
  );
  return Object.fromEntries(
    entries.map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: ErrorEnvelopeSchema } },
        ...(status === 429 ? { headers: RATE_LIMITED_HEADERS } : {}),
      },
    ]),
  );
}
