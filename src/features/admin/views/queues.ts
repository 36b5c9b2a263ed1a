import { createRoute } from '@hono/zod-openapi';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isKnownQueue, queuesOverview } from '../queues.ts';
import { QueueJobParams, QueueParams, QueuesResponse, RetryResponse } from '../schemas.ts';
import { apiErrors, json, security, tags } from './common.ts';

const queuesRoute = createRoute({
  method: 'get',
  path: '/admin/api/queues',
  operationId: 'listQueues',
  tags,
  security,
  summary: "The durable queues' counts, health and latest dead jobs",
  responses: { ...json(QueuesResponse, 'Every registered queue'), ...apiErrors() },
});

const retryAllRoute = createRoute({
  method: 'post',
  path: '/admin/api/queues/{name}/retry',
  operationId: 'retryDeadJobs',
  tags,
  security,
  summary: 'Puts every dead job of the queue back to pending with fresh attempts',
  request: { params: QueueParams },
  responses: {
    ...json(RetryResponse, 'How many jobs were retried'),
    ...apiErrors({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND: no such queue' }),
  },
});

const retryOneRoute = createRoute({
  method: 'post',
  path: '/admin/api/queues/{name}/jobs/{id}/retry',
  operationId: 'retryDeadJob',
  tags,
  security,
  summary: 'Puts one dead job back to pending with fresh attempts',
  request: { params: QueueJobParams },
  responses: {
    ...json(RetryResponse, 'The job was retried'),
    ...apiErrors({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND: no such queue, or no dead job with that id' }),
  },
});

/** The queues view: counts, dead jobs, and retrying them. */
export function queueViews() {
  return createRouter()
    .openapi(queuesRoute, async (c) =>
      c.json({ success: true as const, queues: await queuesOverview(c.env.deps) }, 200),
    )
    .openapi(retryAllRoute, async (c) => {
      const { name } = c.req.valid('param');
      const deps = c.env.deps;
      if (!isKnownQueue(deps.worker, name))
        throw new ApiError('NOT_FOUND', `There is no queue named ${name}.`);
      const retried = await deps.jobs.retryDead(name);
      if (retried > 0) deps.worker.poke();
      c.env.logger.info({ queue: name, retried }, 'admin retried dead jobs');
      return c.json({ success: true as const, retried }, 200);
    })
    .openapi(retryOneRoute, async (c) => {
      const { name, id } = c.req.valid('param');
      const deps = c.env.deps;
      if (!isKnownQueue(deps.worker, name))
        throw new ApiError('NOT_FOUND', `There is no queue named ${name}.`);
      const retried = await deps.jobs.retryDead(name, id);
      if (retried === 0)
        throw new ApiError('NOT_FOUND', 'No dead job with this id in this queue (already retried?).');
      deps.worker.poke();
      c.env.logger.info({ queue: name, jobId: id }, 'admin retried a dead job');
      return c.json({ success: true as const, retried }, 200);
    });
}
