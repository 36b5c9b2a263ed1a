import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { requireJson } from '../../http/body.ts';
import type { AppEnv } from '../../http/env.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMITED_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode, type ErrorEnvelopeOf } from '../../http/errors.ts';
import { rateLimiter } from '../../http/rate-limit.ts';
import { LlmError } from '../../integrations/llm/llm-client.ts';
import { sliceWhole } from '../../text/slice-whole.ts';
import { describeIssue } from '../../text/validation-message.ts';
import { AI_LIMITS, AI_RATE } from './limits.ts';
import {
  AiErrorSchema,
  RecommendRequestSchema,
  RecommendResponseSchema,
  RefineRequestSchema,
  RefineResponseSchema,
  SearchQuerySchema,
  SearchResponseSchema,
} from './schemas.ts';
import { type AiContext, recommendPlan, refineMessage, searchTest } from './service.ts';

export const AI_PREFIX = '/api/ai/';

/**
 * ai-api.md: every response under /api/ai/* (errors, 404, 405 and preflights included) is no-store.
 * The edge adds these to every response under the prefix.
 */
export const AI_RESPONSE_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store' };

/** The backend error codes mapped to ai-api.md's lower-case codes and statuses. */
const AI_ERRORS: Partial<Record<ErrorCode, { code: string; status: ContentfulStatusCode }>> = {
  VALIDATION_ERROR: { code: 'invalid_request', status: 400 },
  UNSUPPORTED_MEDIA_TYPE: { code: 'invalid_request', status: 400 },
  PAYLOAD_TOO_LARGE: { code: 'invalid_request', status: 400 },
  // A body that never finished arriving (answered by the server, below the app): ai-api.md has no 408.
  REQUEST_TIMEOUT: { code: 'invalid_request', status: 400 },
  METHOD_NOT_ALLOWED: { code: 'method_not_allowed', status: 405 },
  NOT_FOUND: { code: 'not_found', status: 404 },
  EXTERNAL_SERVICE_ERROR: { code: 'ai_request_failed', status: 502 },
  RATE_LIMITED: { code: 'rate_limited', status: 429 },
  // The database briefly away (its rate limits live there), with Retry-After: passing, not a 500.
  NOT_CONFIGURED: { code: 'service_unavailable', status: 503 },
};

/** The AI routes' own envelope: `{"error":{"code","message"}}` (no-store comes with the path's headers). */
export const aiErrorEnvelope: ErrorEnvelopeOf = (error) => {
  const mapped = AI_ERRORS[error.code] ?? { code: 'internal_error', status: 500 as ContentfulStatusCode };
  const message =
    mapped.status >= 500 && mapped.code === 'internal_error'
      ? 'Something went wrong on our side; please try again.'
      : error.message;
  return { status: mapped.status, body: { error: { code: mapped.code, message } }, headers: error.headers };
};

function describeAiError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is invalid.';
  if (issue.path.length === 0) return 'The request body must be a JSON object.';
  return describeIssue(issue);
}

const errorResponses = {
  400: { description: 'invalid_request', content: { 'application/json': { schema: AiErrorSchema } } },
  429: {
    description: 'rate_limited (per client IP, with Retry-After)',
    headers: RATE_LIMITED_HEADERS,
    content: { 'application/json': { schema: AiErrorSchema } },
  },
  502: { description: 'ai_request_failed', content: { 'application/json': { schema: AiErrorSchema } } },
} as const;

/**
 * Taken inside the handlers, once the request is known to be valid: a 400 tells the developer what is
 * wrong and costs nothing, so it does not count (a front end with a bug must not lock its visitors out).
 */
const recommendRate = rateLimiter({
  name: 'ai-recommend',
  limit: (config) => config.aiRateLimit,
  windowMs: AI_RATE.windowMs,
});
const refineRate = rateLimiter({
  name: 'ai-refine',
  limit: (config) => config.aiRateLimit,
  windowMs: AI_RATE.windowMs,
});
const searchRate = rateLimiter({
  name: 'ai-search',
  limit: (config) => config.aiRateLimit * AI_RATE.searchTestFactor,
  windowMs: AI_RATE.windowMs,
});

const recommendRoute = createRoute({
  method: 'post',
  path: '/api/ai/recommend-plan',
  operationId: 'recommendPlan',
  tags: ['AI'],
  security: [],
  summary: 'Recommend one service path',
  description:
    'Recommends exactly one of Build, Launch, Scale, Custom, Technical Review, with the fixed plan description, a rationale, up to two alternatives, detected needs and missing information. Unparseable model output falls back to a Technical Review recommendation (200).',
  middleware: [requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: RecommendRequestSchema } } } },
  responses: {
    200: {
      description: 'The recommendation',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: RecommendResponseSchema } },
    },
    ...errorResponses,
  },
});

const refineRoute = createRoute({
  method: 'post',
  path: '/api/ai/refine',
  operationId: 'refineProject',
  tags: ['AI'],
  security: [],
  summary: 'Itemise and classify a project description',
  description:
    'Turns free text into ordered sections of short items, suggestions about missing information and the wizard classification (`null` where the text is not clear). Unparseable model output falls back to the original message with empty sections (200).',
  middleware: [requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: RefineRequestSchema } } } },
  responses: {
    200: {
      description: 'The refinement',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: RefineResponseSchema } },
    },
    ...errorResponses,
  },
});

const searchRoute = createRoute({
  method: 'get',
  path: '/api/ai/search-test',
  operationId: 'probeSearchIndex',
  tags: ['AI'],
  security: [],
  summary: 'Probe the search index',
  description: `Top chunks of the search index for \`q\` (trimmed, cut to ${AI_LIMITS.queryMax} characters). An empty index answers \`count: 0\`.`,
  request: { query: SearchQuerySchema },
  responses: {
    200: {
      description: 'Search results',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: SearchResponseSchema } },
    },
    400: errorResponses[400],
    429: errorResponses[429],
  },
});

function aiContext(c: Context<AppEnv>): AiContext {
  const deps = c.env.deps;
  return { llm: deps.llm, search: deps.search, wizardUrl: deps.config.wizardUrl, logger: c.env.logger };
}

/** A failed model call is a 502 `ai_request_failed`; the cause is logged, never sent. */
async function callingModel<T>(c: Context<AppEnv>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof LlmError) {
      c.env.logger.warn({ err: error, cause: String(error.cause ?? '') }, 'AI inference failed');
      throw new ApiError(
        'EXTERNAL_SERVICE_ERROR',
        'The AI service could not answer; please try again later.',
      );
    }
    throw error;
  }
}

export function aiRoutes() {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new ApiError('VALIDATION_ERROR', describeAiError(result.error));
    },
  });
  return router
    .openapi(recommendRoute, async (c) => {
      const body = c.req.valid('json');
      await recommendRate(c);
      const result = await callingModel(c, () => recommendPlan(body, aiContext(c)));
      return c.json(result, 200);
    })
    .openapi(refineRoute, async (c) => {
      const body = c.req.valid('json');
      await refineRate(c);
      const result = await callingModel(c, () => refineMessage(body, aiContext(c)));
      return c.json(result, 200);
    })
    .openapi(searchRoute, async (c) => {
      const query = sliceWhole(c.req.valid('query').q.trim(), AI_LIMITS.queryMax).trim();
      if (query === '') throw new ApiError('VALIDATION_ERROR', 'q is required and must not be empty.');
      await searchRate(c);
      return c.json(await searchTest(query, c.env.deps.search), 200);
    });
}
