import { readFile } from 'node:fs/promises';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Dependencies } from '../../dependencies.ts';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { sseResponse } from '../../http/sse.ts';
import { normalizeLanguage } from '../../integrations/prototype-generator/types.ts';
import { stillGeneratingMessage } from './chat-path.ts';
import { prototypeContext } from './context.ts';
import { documentUrl, enqueueRetry, errorPayload, previewUrl } from './generation.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import {
  documentCsp,
  PREVIEW_SCRIPT_PATH,
  PREVIEW_STYLE_PATH,
  type PreviewState,
  previewCsp,
  renderPreviewPage,
  renderPreviewUnavailable,
} from './preview.ts';
import { GenerationResult, LeadIdParams, STREAM_DESCRIPTION, StartGenerationResponse } from './schemas.ts';
import { eligibleLead, generateNow, PrototypeRefusal, triggerGeneration } from './service.ts';
import { latestAttempt, latestResult } from './store.ts';
import { followGeneration, parseLastEventId } from './stream.ts';

const ErrorBody = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), requestId: z.string() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const leadErrors = {
  404: errorResponse('`NOT_FOUND`: no lead has this id'),
  409: errorResponse('`CONFLICT`: the lead is classified spam or vendor, or did not ask for a prototype'),
};

/** A refusal from the logic as the HTTP error the contract names. */
function toApiError(error: unknown): unknown {
  if (!(error instanceof PrototypeRefusal)) return error;
  if (error.reason === 'not_found') return new ApiError('NOT_FOUND', error.message);
  if (error.reason === 'quota' && error.quota) {
    return new ApiError('RATE_LIMITED', error.message, {
      headers: { 'Retry-After': String(error.quota.retryAfterSeconds) },
      details: { resetDate: error.quota.resetDate, limit: error.quota.limit },
    });
  }
  return new ApiError('CONFLICT', error.message);
}

async function mapped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toApiError(error);
  }
}

const GENERATION_LIMIT_TEXT =
  `At most ${PROTOTYPE_LIMITS.generationRequestsPerHour} generation requests per lead per hour, ` +
  'trigger-generation and generate counted together.';
const TOO_MANY_DESCRIPTION =
  '`RATE_LIMITED`: the monthly quota is used up (`Retry-After`, `error.resetDate`) or too many generation ' +
  'requests for this lead (`Retry-After`)';

/**
 * trigger-generation and the blocking generate each may start a paid generation (model or v0): one
 * per-lead budget for both. Asked after the lead is known to be eligible, so made-up ids leave no
 * bucket rows behind.
 */
async function limitGenerationRequests(deps: Dependencies, leadId: string): Promise<void> {
  const hits = await deps.rateLimiter.hit(
    `prototype-generation:${leadId}`,
    PROTOTYPE_LIMITS.generationRequestsPerHour,
    3_600_000,
  );
  if (!hits.allowed) {
    throw new ApiError('RATE_LIMITED', 'Too many generation requests for this lead; please wait.', {
      headers: { 'Retry-After': String(hits.retryAfterSeconds) },
    });
  }
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
      content: { 'application/json': { schema: StartGenerationResponse } },
    },
    ...leadErrors,
    429: errorResponse(TOO_MANY_DESCRIPTION),
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
      content: { 'application/json': { schema: GenerationResult } },
    },
    ...leadErrors,
    429: errorResponse(TOO_MANY_DESCRIPTION),
    502: errorResponse(
      '`EXTERNAL_SERVICE_ERROR`: the generator failed (`error.status`: `generating` while it is retried, ' +
        '`failed` when it is over)',
    ),
  },
});

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

const previewRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}/preview',
  tags: ['Prototypes'],
  summary: 'The prototype preview page (HTML)',
  description:
    'While generating: a progress view that follows generate-stream and swaps to the prototype when it is ' +
    'complete. When complete: the prototype in a sandboxed iframe (the document is served with ' +
    '`Content-Security-Policy: sandbox`, so it never runs with this origin’s privileges), or the v0 demo. Failed: ' +
    'a message and a retry button. In the lead’s language (`?lang=en|es` overrides). No inline script or style.',
  request: { params: LeadIdParams, query: z.object({ lang: z.string().max(16).optional() }) },
  responses: {
    200: html('The preview page'),
    404: html('No lead has this id (an HTML page)'),
    409: html('No prototype for this lead: spam, vendor or not asked for (an HTML page)'),
  },
});

const documentRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}/prototype',
  tags: ['Prototypes'],
  summary: 'The generated prototype document',
  description:
    'The latest completed prototype as a standalone HTML document, served with `Content-Security-Policy: sandbox` ' +
    '(opaque origin, no script, nothing loaded from elsewhere). A v0 prototype redirects (302) to its demo URL.',
  request: { params: LeadIdParams },
  responses: {
    200: html('The document'),
    302: { description: 'Redirect to the v0 demo' },
    404: errorResponse('`NOT_FOUND`: no lead with this id, or no completed prototype yet'),
  },
});

function frameAncestors(deps: Dependencies): string[] {
  return [deps.config.siteOrigin, ...(deps.config.wwwSiteOrigin ? [deps.config.wwwSiteOrigin] : [])];
}

function htmlPage(c: Context<AppEnv>, body: string, status: 200 | 404 | 409, csp: string) {
  c.header('Content-Security-Policy', csp);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.html(body, status);
}

export function prototypeRoutes() {
  const assets = new Map<string, Promise<string>>();
  const asset = (file: string) => {
    let text = assets.get(file);
    if (!text) {
      text = readFile(new URL(`./assets/${file}`, import.meta.url), 'utf8');
      assets.set(file, text);
    }
    return text;
  };
  const router = createRouter();
  router.get(PREVIEW_SCRIPT_PATH, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(await asset('preview.js'), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  router.get(PREVIEW_STYLE_PATH, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(await asset('preview.css'), 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  return router
    .openapi(triggerRoute, async (c) => {
      const deps = c.env.deps;
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(deps, c.env.logger);
      // Refused before counting: an unknown or ineligible id leaves no bucket row behind.
      await mapped(() => eligibleLead(ctx, id));
      await limitGenerationRequests(deps, id);
      const { attempt, started } = await mapped(() => triggerGeneration(ctx, id));
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
      const ctx = prototypeContext(c.env.deps, c.env.logger);
      await mapped(() => eligibleLead(ctx, id));
      await limitGenerationRequests(c.env.deps, id);
      const outcome = await mapped(() => generateNow(ctx, id, 'generate'));
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
    })
    .openapi(streamRoute, async (c) => {
      const deps = c.env.deps;
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(deps, c.env.logger);
      const lead = await mapped(() => eligibleLead(ctx, id));
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
    })
    .openapi(previewRoute, async (c) => {
      const deps = c.env.deps;
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(deps, c.env.logger);
      const lead = await ctx.leads.get(id);
      const lang = c.req.valid('query').lang;
      const language = lang ? normalizeLanguage(lang) : (lead?.language ?? 'en');
      const ancestors = frameAncestors(deps);
      if (!lead)
        return htmlPage(c, renderPreviewUnavailable(language, 'not_found'), 404, previewCsp(ancestors, null));
      try {
        await eligibleLead(ctx, id);
      } catch {
        return htmlPage(
          c,
          renderPreviewUnavailable(language, 'unavailable'),
          409,
          previewCsp(ancestors, null),
        );
      }
      const [latest, result] = await Promise.all([latestAttempt(ctx.db, id), latestResult(ctx.db, id)]);
      let state: PreviewState;
      if (latest?.status === 'completed' && result) {
        state = {
          kind: 'completed',
          attempt: result.attempt,
          documentPath: result.hasHtml ? `/api/leads/${encodeURIComponent(id)}/prototype` : null,
          demoUrl: result.demoUrl,
        };
      } else if (latest?.status === 'failed' && lead.status === 'failed') {
        state = { kind: 'failed', quota: false };
      } else {
        // Not started, running, stale, or failed with a retry pending: the page's stream takes it from here.
        const step = latest?.status === 'generating' ? latest.step : 'queued';
        state = {
          kind: 'generating',
          step: step as never,
          percent: latest?.status === 'generating' ? latest.percent : 0,
        };
      }
      const preparedFor = lead.answers.company || lead.answers.name || '';
      const demoUrl = state.kind === 'completed' ? state.demoUrl : null;
      return htmlPage(
        c,
        renderPreviewPage({ leadId: id, language, preparedFor, state }),
        200,
        previewCsp(ancestors, demoUrl),
      );
    })
    .openapi(documentRoute, async (c) => {
      const deps = c.env.deps;
      const { id } = c.req.valid('param');
      const result = await latestResult(deps.db, id);
      if (!result) throw new ApiError('NOT_FOUND', 'This lead has no completed prototype yet.');
      if (!result.html && result.demoUrl) return c.redirect(result.demoUrl, 302) as never;
      c.header('Content-Security-Policy', documentCsp(frameAncestors(deps)));
      c.header('Cache-Control', 'no-cache');
      c.header('Referrer-Policy', 'no-referrer');
      c.header('Cross-Origin-Resource-Policy', 'same-origin');
      return c.html(result.html ?? '', 200) as never;
    });
}
