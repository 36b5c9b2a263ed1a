import { createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { ErrorEnvelopeSchema } from '../../http/error-responses.ts';
import { errorEnvelope } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';

const ServiceInfo = z
  .object({
    name: z.string().openapi({ example: packageJson.name }),
    version: z.string().openapi({ example: packageJson.version }),
    timestamp: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
  })
  .openapi('ServiceInfo');

const HealthStatus = z.object({ status: z.literal('OK') }).openapi('HealthStatus');
const ReadyStatus = z.object({ status: z.literal('READY') }).openapi('ReadyStatus');

const rootRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getServiceInfo',
  // It never touches the database: no 503 for a database outage (openapi-document.ts).
  'x-database': false,
  tags: ['Health'],
  security: [],
  summary: 'API name, version and the current time',
  responses: {
    200: { description: 'Service information', content: { 'application/json': { schema: ServiceInfo } } },
  },
});

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  // It never touches the database: no 503 for a database outage (openapi-document.ts).
  'x-database': false,
  tags: ['Health'],
  security: [],
  summary: 'Liveness check',
  description: 'Answers `{"status":"OK"}` while the process serves requests. It does not touch the database.',
  responses: { 200: { description: 'Alive', content: { 'application/json': { schema: HealthStatus } } } },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/ready',
  operationId: 'getReadiness',
  tags: ['Health'],
  security: [],
  summary: 'Readiness check',
  description:
    'Answers `{"status":"READY"}` when this instance should be sent traffic: it has started, it is not ' +
    'shutting down, and its database answers (within 2 s) that the migrations of this version are ' +
    'applied. Otherwise 503 in the error envelope, the message saying why (starting, shutting down, ' +
    'the database unreachable or slow, the migrations not applied). For load balancers and ' +
    'orchestrators; `/health` is the liveness check.',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: ReadyStatus } } },
    503: {
      description:
        'NOT_CONFIGURED with Retry-After: not ready (starting, shutting down, or the database not answering)',
      content: { 'application/json': { schema: ErrorEnvelopeSchema } },
    },
  },
});

export function healthRoutes() {
  return createRouter()
    .openapi(rootRoute, (c) =>
      c.json(
        { name: packageJson.name, version: packageJson.version, timestamp: new Date().toISOString() },
        200,
      ),
    )
    .openapi(healthRoute, (c) => c.json({ status: 'OK' as const }, 200))
    .openapi(readyRoute, async (c) => {
      const notReady = await c.env.deps.readiness.check();
      if (notReady === null) return c.json({ status: 'READY' as const }, 200);
      // Answered, not thrown: a probe of an instance that is not ready is no error of the service.
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json(errorEnvelope('NOT_CONFIGURED', `Not ready: ${notReady}.`, c.env.requestId), 503);
    });
}
