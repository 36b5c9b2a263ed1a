import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../../http/env.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMITED_HEADERS } from '../../../http/error-responses.ts';
import { ApiError, mapErrors } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { type RateLimitPolicy, rateLimitFields, refusalFields } from '../../../http/rate-limit-fields.ts';
import { stillGeneratingMessage } from '../chat-path.ts';
import { type PrototypePorts, prototypeContext } from '../context.ts';
import { documentUrl, previewUrl } from '../generation.ts';
import { PROTOTYPE_LIMITS } from '../limits.ts';
import { GenerationResult, LeadIdParams, StartGenerationResponse } from '../schemas.ts';
import { eligibleLead, generateNow, triggerGeneration } from '../service.ts';
import { latestResult } from '../store.ts';
import { errorResponse, leadErrors, toApiError } from './common.ts';

const GENERATION_LIMIT_TEXT =
  `At most ${PROTOTYPE_LIMITS.generationRequestsPerHour} generation requests per lead per hour, ` +
  'trigger-generation and generate counted together.';
const TOO_MANY_DESCRIPTION =
  '`RATE_LIMITED`: the monthly quota is used up (`Retry-After`, `error.resetDate`) or too many generation ' +
  'requests for this lead (`Retry-After`)';

const GENERATION_POLICY: RateLimitPolicy = {
  name: 'prototype-generation',
  quota: PROTOTYPE_LIMITS.generationRequestsPerHour,
  windowSeconds: 3600,
};

/**
 * trigger-generation and the blocking generate each may start a paid generation (model or v0): one
 * per-lead budget for both, advertised in `RateLimit-Policy`/`RateLimit`. Asked after the lead is known
 * to be eligible, so made-up ids leave no bucket rows behind.
 */
async function limitGenerationRequests(c: Context<AppEnv>, leadId: string): Promise<void> {
  const hits = await c.env.deps.rateLimiter.hit(
    `${GENERATION_POLICY.name}:${leadId}`,
    GENERATION_POLICY.quota,
    GENERATION_POLICY.windowSeconds * 1000,
  );
  if (!hits.allowed) {
    throw new ApiError('RATE_LIMITED', 'Too many generation requests for this lead; please wait.', {
      headers: refusalFields(GENERATION_POLICY, hits.retryAfterSeconds),
    });
  }
  const fields = rateLimitFields(GENERATION_POLICY, {
    remaining: hits.remaining,
    resetSeconds: hits.retryAfterSeconds,
  });
  for (const name in fields) c.header(name, fields[name]);
}

const triggerRoute = createRoute({
  method: 'post',
  path: '/api/leads/{id}/trigger-generation',
  tags: ['Prototypes'],
  summary: 'Start prototype generation in the background',
  description:
    'Re-checks the monthly prototype quota (dual bucket: IP and e-mail), marks the buckets in progress, sets the ' +
    'lead to `generating`, starts the generation in the background and answers at once. When a generation is ' +
    'already running it is returned instead (no double generation). A failed background run is retried through ' +
    `PrototypeQueue. ${GENERATION_LIMIT_TEXT} No body is read.`,
  request: { params: LeadIdParams },
  responses: {
    200: {
      description: 'Started (or already running)',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: StartGenerationResponse } },
    },
    ...leadErrors,
    429: { ...errorResponse(TOO_MANY_DESCRIPTION), headers: RATE_LIMITED_HEADERS },
  },
});

const generateRoute = createRoute({
  method: 'post',
  path: '/api/leads/{id}/generate',
  tags: ['Prototypes'],
  summary: 'Generate the prototype and wait for it (blocking)',
  description:
    'Like trigger-generation, but the response comes when the generation has finished (or, when one is already ' +
    'running, when that one finishes; if that one fails with a retry pending, this request takes over). A ' +
    'failure PrototypeQueue can retry (an outside outage) answers 502 with `error.status: "generating"`: the ' +
    'lead stays `generating` with its quota slot held, retried with backoff for over an hour (follow ' +
    '`previewUrl`); so does a shutdown of this instance (the generation goes on elsewhere). A failure that ' +
    'cannot be retried answers 502 with `error.status: "failed"`: the lead is `failed`, its slot given back. ' +
    GENERATION_LIMIT_TEXT,
  request: { params: LeadIdParams },
  responses: {
    200: {
      description: 'The prototype is ready',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: GenerationResult } },
    },
    ...leadErrors,
    429: { ...errorResponse(TOO_MANY_DESCRIPTION), headers: RATE_LIMITED_HEADERS },
    502: errorResponse(
      '`EXTERNAL_SERVICE_ERROR`: the generator failed (`error.status`: `generating` while it is retried, ' +
        '`failed` when it is over)',
    ),
  },
});

/** Starting a generation: in the background (the site) or waited for (the blocking call). */
export function generationViews(ports: PrototypePorts) {
  return createRouter()
    .openapi(triggerRoute, async (c) => {
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(ports, c.env.logger);
      // Refused before counting: an unknown or ineligible id leaves no bucket row behind.
      await mapErrors(eligibleLead(ctx, id), toApiError);
      await limitGenerationRequests(c, id);
      const { attempt, started } = await mapErrors(triggerGeneration(ctx, id), toApiError);
      return c.json(
        {
          success: true as const,
          status: 'started' as const,
          generatedAt: new Date(attempt.generatingAt).toISOString(),
          previewUrl: previewUrl(ctx, id),
          leadId: id,
          attempt: attempt.attempt,
          alreadyRunning: !started,
        },
        200,
      );
    })
    .openapi(generateRoute, async (c) => {
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(ports, c.env.logger);
      await mapErrors(eligibleLead(ctx, id), toApiError);
      await limitGenerationRequests(c, id);
      const outcome = await mapErrors(generateNow(ctx, id, 'generate'), toApiError);
      if (outcome.status !== 'completed') {
        // Not over (handed over by a shutdown, or retried by PrototypeQueue): the answer says so.
        const stillGenerating = stillGeneratingMessage(outcome);
        throw new ApiError(
          'EXTERNAL_SERVICE_ERROR',
          stillGenerating ?? 'The prototype could not be generated; please try again.',
          {
            details: {
              status: stillGenerating ? 'generating' : 'failed',
              previewUrl: previewUrl(ctx, id),
            },
          },
        );
      }
      const done = (await latestResult(ctx.db, id)) ?? outcome.attempt;
      return c.json(
        {
          success: true as const,
          status: 'completed' as const,
          leadId: id,
          attempt: done.attempt,
          generator: done.generator,
          generatedAt: new Date(done.generatingAt).toISOString(),
          completedAt: done.completedAt ? new Date(done.completedAt).toISOString() : null,
          previewUrl: previewUrl(ctx, id),
          documentUrl: done.hasHtml ? documentUrl(ctx, id) : null,
          demoUrl: done.demoUrl,
        },
        200,
      );
    });
}
