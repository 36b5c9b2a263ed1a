import { createRoute, z } from '@hono/zod-openapi';
import { mapErrors } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { sseResponse } from '../../../http/sse.ts';
import { type PrototypePorts, prototypeContext } from '../context.ts';
import { enqueueRetry, errorPayload } from '../generation.ts';
import { LeadIdParams, STREAM_DESCRIPTION } from '../schemas.ts';
import { eligibleLead } from '../service.ts';
import { latestAttempt } from '../store.ts';
import { followGeneration, parseLastEventId } from '../stream.ts';
import { leadErrors, toApiError } from './common.ts';

const streamRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}/generate-stream',
  tags: ['Prototypes'],
  summary: 'Follow prototype generation as server-sent events',
  description: STREAM_DESCRIPTION,
  request: {
    params: LeadIdParams,
    query: z.object({
      lastEventId: z
        .string()
        .max(20)
        .optional()
        .openapi({ description: 'Same as the `Last-Event-ID` header' }),
    }),
  },
  responses: {
    200: {
      description: 'An SSE stream (`text/event-stream`)',
      content: {
        'text/event-stream': {
          schema: z.string().openapi({
            example:
              'id: 1\nevent: progress\ndata: {"leadId":"…","attempt":1,"step":"queued","percent":2,"message":"Your request is in the queue…","at":"2026-11-21T10:15:30.000Z"}\n\n' +
              'id: 5\nevent: complete\ndata: {"leadId":"…","attempt":1,"status":"completed","generator":"builtin","kind":"landing","previewUrl":"…","documentUrl":"…","demoUrl":null,"completedAt":"…","message":"Your prototype is ready."}\n\n',
          }),
        },
      },
    },
    ...leadErrors,
  },
});

/** Following a generation as server-sent events (the preview page's progress view). */
export function streamViews(ports: PrototypePorts) {
  return createRouter().openapi(streamRoute, async (c) => {
    const deps = c.env.deps;
    const { id } = c.req.valid('param');
    const ctx = prototypeContext(ports, c.env.logger);
    const lead = await mapErrors(eligibleLead(ctx, id), toApiError);
    const lastEventId = parseLastEventId(c.req.header('Last-Event-ID') ?? c.req.valid('query').lastEventId);
    return sseResponse(
      c,
      async (writer) => {
        try {
          await followGeneration(ctx, lead, writer, lastEventId);
        } catch (error) {
          // The safety net: the generation itself may be fine, but make sure it is seen through.
          ctx.logger.error({ err: error, leadId: id }, 'prototype stream failed');
          await enqueueRetry(
            ctx,
            id,
            undefined,
            'stream-error',
            `stream-error:${id}:${Math.floor(Date.now() / 60_000)}`,
          );
          await writer.send('error', {
            ...errorPayload(null, id, lead.language, 'STREAM_FAILED', true),
            attempt: (await latestAttempt(ctx.db, id).catch(() => null))?.attempt ?? null,
          });
        }
      },
      { shutdownSignal: deps.shutdownSignal },
    ) as never;
  });
}
