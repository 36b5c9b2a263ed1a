import type { OpenAPIHono } from '@hono/zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import type { AppEnv } from './env.ts';
import { LIMITS } from './limits.ts';

export type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The headers the edge and the error handling put on responses, described once. */
const HEADERS = {
  'X-Request-Id': {
    description:
      "The request's id: the caller's own `X-Request-Id` when it sent a sane one, else a new one. Every log " +
      'line of the request carries it, and error bodies repeat it.',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description:
      'Seconds to wait before trying again: on every 429, and on a 503 while the database is briefly ' +
      'unavailable (a 503 for an unconfigured service has none).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Cache-Control': {
    description: 'On every answer of the AI routes (`/api/ai/*`, ai-api.md): never stored by a cache.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
} as const;

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The shared headers of a response with this status; a route's own headers are kept beside them. */
function sharedHeaders(path: string, status: string) {
  return {
    'X-Request-Id': ref('X-Request-Id'),
    ...(path.startsWith(AI_PREFIX) ? { 'Cache-Control': ref('Cache-Control') } : {}),
    ...(status === '429' || status === '503' ? { 'Retry-After': ref('Retry-After') } : {}),
  };
}

const AI_PREFIX = '/api/ai/';

/**
 * `/openapi.json`: the routes' own definitions (operation ids, security, schemas: each in its
 * feature's `createRoute`), completed here with what is true of every operation: the server the
 * service is reached at and the headers every response carries.
 */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>, publicBaseUrl: string): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Agency website backend',
      version: packageJson.version,
      description:
        'The backend of the agency website. Backend routes answer errors as ' +
        '`{"success":false,"error":{"code","message","requestId"}}` (`ErrorEnvelope`); the AI routes under ' +
        '`/api/ai/*` use `{"error":{"code","message"}}` with lower-case codes (`AiError`). Every response ' +
        'carries `X-Request-Id`. Deliberate difference from the spec: with `NODE_ENV=production`, ' +
        '`GET /api/leads` and `GET /api/contact` need `X-Admin-Api-Key`, and `GET /api/leads/{id}` leaves ' +
        'out e-mail and phone without it (`PUBLIC_PERSONAL_DATA_LISTS=true` restores the spec).',
    },
    servers: [{ url: publicBaseUrl, description: 'This service (PUBLIC_BASE_URL)' }],
  });
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      addSharedErrors(operation, method);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if ('$ref' in response) continue;
        response.headers = { ...sharedHeaders(path, status), ...response.headers };
      }
    }
  }
  return document;
}

type Operation = NonNullable<NonNullable<OpenApiDocument['paths']>[string]['get']>;

/** The methods whose JSON body the edge limits (app.ts): too large is 413 before any route runs. */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The errors any operation can answer besides its own, which its route does not list: 500 (an
 * unexpected failure, logged with the request id); 503 with Retry-After while the database is briefly
 * unavailable (app.ts's error handler), unless the route declares `'x-database': false` (it never
 * touches it); 413 for a JSON body over the edge's limit. Each in the operation's own error envelope
 * (the schema of its other errors: AiError under /api/ai/, else ErrorEnvelope), where it uses one.
 * The AI routes answer an oversized body with their own 400 (ai-api.md), so they get no 413.
 */
function addSharedErrors(operation: Operation, method: string): void {
  const responses = operation.responses ?? {};
  const ownError = Object.entries(responses).find(
    ([status, r]) => Number(status) >= 400 && !('$ref' in r) && r.content?.['application/json'],
  )?.[1] as { content: { 'application/json': { schema: unknown } } } | undefined;
  const schema = ownError?.content['application/json'].schema ?? {
    $ref: '#/components/schemas/ErrorEnvelope',
  };
  const backendEnvelope =
    JSON.stringify(schema) === JSON.stringify({ $ref: '#/components/schemas/ErrorEnvelope' });
  const error = (description: string) => ({ description, content: { 'application/json': { schema } } });
  const added: Record<string, ReturnType<typeof error>> = {};
  if (BODY_METHODS.has(method) && backendEnvelope && !responses['413']) {
    added['413'] = error(`PAYLOAD_TOO_LARGE: the JSON body is over ${LIMITS.jsonBodyBytes} bytes`);
  }
  if (operation['x-database'] !== false && !responses['503']) {
    added['503'] = error(
      'The database is briefly unavailable (a restart, a failover): try again after Retry-After',
    );
  }
  if (!responses['500']) added['500'] = error('An unexpected failure, logged with the request id');
  operation.responses = { ...responses, ...added } as typeof responses;
}
