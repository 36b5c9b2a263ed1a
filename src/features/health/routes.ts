import { createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { createRouter } from '../../http/openapi.ts';

const ServiceInfo = z
  .object({
    name: z.string().openapi({ example: packageJson.name }),
    version: z.string().openapi({ example: packageJson.version }),
    timestamp: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
  })
  .openapi('ServiceInfo');

const HealthStatus = z.object({ status: z.literal('OK') }).openapi('HealthStatus');

const rootRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getServiceInfo',
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
  tags: ['Health'],
  security: [],
  summary: 'Liveness check',
  description: 'Answers `{"status":"OK"}` while the process serves requests. It does not touch the database.',
  responses: { 200: { description: 'Alive', content: { 'application/json': { schema: HealthStatus } } } },
});

export function healthRoutes() {
  return createRouter()
    .openapi(rootRoute, (c) =>
      c.json(
        { name: packageJson.name, version: packageJson.version, timestamp: new Date().toISOString() },
        200,
      ),
    )
    .openapi(healthRoute, (c) => c.json({ status: 'OK' as const }, 200));
}
