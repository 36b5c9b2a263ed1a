import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { getPath } from 'hono/utils/url';
import packageJson from '../package.json' with { type: 'json' };
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './db/unavailable.ts';
import type { Dependencies } from './dependencies.ts';
import { bodyLimiter, JSON_ONLY_MESSAGE } from './http/body.ts';
import { brokenRequestStatus } from './http/broken-request.ts';
import { answerPreflight } from './http/cors.ts';
import { type Dispatch, withEdge } from './http/edge.ts';
import { EDGE_HOOKS, type EdgeHook } from './http/edge-hooks.ts';
import type { AppEnv, RequestEnv } from './http/env.ts';
import { ApiError, type ErrorCode, sendError } from './http/errors.ts';
import { RouteTable } from './http/route-table.ts';
import { StaticPathMemoRouter } from './http/router.ts';

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'NOT_CONFIGURED',
};

/** Methods whose requests may carry a body, and so go through the body limit. */
const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export interface AppOptions {
  /** The cross-cutting work every request goes through (default: `EDGE_HOOKS` of `http/edge-hooks.ts`). */
  edgeHooks?: readonly EdgeHook[];
}

/** The app: the edge around one sub-app per feature (`deps.features`), with the shared error handling. */
export function createApp(deps: Dependencies, options: AppOptions = {}) {
  const { paths } = deps;
  const app = new OpenAPIHono<AppEnv>({
    router: new StaticPathMemoRouter(),
    // The edge has worked the path out already (`env` is its request scope).
    getPath: (request, options) => (options?.env as RequestEnv | undefined)?.path ?? getPath(request),
  });
  let routeTable: RouteTable | null = null;
  const routes = () => {
    routeTable ??= new RouteTable(app.routes);
    return routeTable;
  };

  function toApiError(error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof HTTPException) {
      const code = HTTP_STATUS_CODES[error.status] ?? 'INTERNAL_ERROR';
      // The documented routes' media-type gate: every route it guards reads JSON only.
      const message =
        code === 'VALIDATION_ERROR' && /json/i.test(error.message)
          ? 'The request body is not valid JSON.'
          : code === 'UNSUPPORTED_MEDIA_TYPE'
            ? JSON_ONLY_MESSAGE
            : error.message || 'The request could not be handled.';
      return new ApiError(code, message);
    }
    return new ApiError('INTERNAL_ERROR', 'Something went wrong on our side; please try again.');
  }

  function handleError(error: unknown, c: Context<AppEnv>): Response {
    const brokenStatus = brokenRequestStatus(c.env.incoming, c.env.outgoing);
    if (brokenStatus !== null) {
      // The connection is done (Node has answered, or the client left): nothing more reaches it.
      c.env.logger.info(
        { status: brokenStatus, reason: error instanceof Error ? error.message : String(error) },
        'request body broken off or malformed',
      );
      return c.body(null, brokenStatus as ContentfulStatusCode);
    }
    if (!(error instanceof ApiError) && isDatabaseUnavailable(error)) {
      // A restart or failover (PostgreSQL), a file locked elsewhere (SQLite): passing, so 503 and
      // when to try again, not a 500. contract.md's one 503 code is NOT_CONFIGURED.
      c.env.logger.warn({ err: error, status: 503 }, 'request failed: the database is unavailable');
      return renderError(
        c,
        new ApiError('NOT_CONFIGURED', 'The service is briefly unavailable; please try again in a moment.', {
          headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        }),
      );
    }
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      c.env.logger.error({ err: error }, 'request failed');
    }
    return renderError(c, apiError);
  }

  function renderError(c: Context<AppEnv>, error: ApiError): Response {
    return sendError(c, error, paths.errorEnvelopeFor(c.req.path));
  }

  const allowedOrigins = new Set(deps.config.corsOrigins);
  app.options('*', (c) => answerPreflight(c, { allowedOrigins, routes }));
  // Only a body some route will read is limited: an unknown path stays 404 and a wrong method 405
  // (with `Allow`), whatever the size of the body sent with them.
  const limitBody = bodyLimiter({ skip: (path) => paths.readsOwnBody(path) });
  app.on(BODY_METHODS, ['*'], (c, next) =>
    routes().routeOf(c.req.method, c.req.path) === null ? next() : limitBody(c, next),
  );

  for (const feature of deps.features) if (feature.routes) app.route('/', feature.routes);

  const openApiDocument = () =>
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Agency website backend',
        version: packageJson.version,
        description:
          'The backend of the agency website. Backend routes answer errors as ' +
          '`{"success":false,"error":{"code","message","requestId"}}`; the AI routes under `/api/ai/*` ' +
          'use `{"error":{"code","message"}}` with lower-case codes. Every response carries `X-Request-Id`. ' +
          'Deliberate difference from the spec: with `NODE_ENV=production`, `GET /api/leads` and ' +
          '`GET /api/contact` need `X-Admin-Api-Key`, and `GET /api/leads/{id}` leaves out e-mail and phone ' +
          'without it (`PUBLIC_PERSONAL_DATA_LISTS=true` restores the spec).',
      },
    });
  let builtDocument: ReturnType<typeof openApiDocument> | null = null;
  app.get('/openapi.json', (c) => {
    builtDocument ??= openApiDocument();
    return c.json(builtDocument);
  });

  app.notFound((c) => {
    const allowed = routes().allowedMethods(c.req.path);
    if (allowed) {
      return renderError(
        c,
        new ApiError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}.`, {
          headers: { Allow: allowed.join(', ') },
        }),
      );
    }
    return renderError(c, new ApiError('NOT_FOUND', `No route matches ${c.req.path}.`));
  });

  app.onError(handleError);

  app.fetch = withEdge(app.fetch as Dispatch, {
    deps,
    allowedOrigins,
    paths,
    routes,
    hooks: options.edgeHooks ?? EDGE_HOOKS,
  }) as typeof app.fetch;
  return app;
}

export type App = ReturnType<typeof createApp>;
