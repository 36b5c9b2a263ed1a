import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../../http/env.ts';
import { errorResponse } from '../../../http/error-responses.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import type { Infrastructure } from '../../../infrastructure.ts';
import { normalizeLanguage } from '../../../text/language.ts';
import { type PrototypePorts, prototypeContext } from '../context.ts';
import {
  documentCsp,
  type PreviewState,
  previewCsp,
  renderPreviewPage,
  renderPreviewUnavailable,
} from '../preview.ts';
import { LEAD_ID_MAX_LENGTH, LeadIdParams } from '../schemas.ts';
import { eligibleLead } from '../service.ts';
import { latestAttempt, latestResult } from '../store.ts';

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const previewRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}/preview',
  operationId: 'getLeadPreview',
  tags: ['Prototypes'],
  security: [],
  summary: 'The prototype preview page (HTML)',
  description:
    'While generating: a progress view that follows generate-stream and swaps to the prototype when it is ' +
    'complete. When complete: the prototype in a sandboxed iframe (the document is served with ' +
    '`Content-Security-Policy: sandbox`, so it never runs with this origin’s privileges), or the v0 demo. Failed: ' +
    'a message and a retry button. In the lead’s language (`?lang=en|es` overrides). No inline script or style.',
  request: { params: LeadIdParams, query: z.object({ lang: z.string().max(16).optional() }) },
  responses: {
    200: html('The preview page'),
    400: errorResponse(`\`VALIDATION_ERROR\`: an id longer than ${LEAD_ID_MAX_LENGTH} characters`),
    404: html('No lead has this id (an HTML page)'),
    409: html('No prototype for this lead: spam, vendor or not asked for (an HTML page)'),
  },
});

const documentRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}/prototype',
  operationId: 'getLeadPrototype',
  tags: ['Prototypes'],
  security: [],
  summary: 'The generated prototype document',
  description:
    'The latest completed prototype as a standalone HTML document, served with `Content-Security-Policy: sandbox` ' +
    '(opaque origin, no script, nothing loaded from elsewhere). A v0 prototype redirects (302) to its demo URL.',
  request: { params: LeadIdParams },
  responses: {
    200: html('The document'),
    302: { description: 'Redirect to the v0 demo' },
    400: errorResponse(`\`VALIDATION_ERROR\`: an id longer than ${LEAD_ID_MAX_LENGTH} characters`),
    404: errorResponse('`NOT_FOUND`: no lead with this id, or no completed prototype yet'),
  },
});

function frameAncestors(deps: Pick<Infrastructure, 'config'>): string[] {
  return [deps.config.siteOrigin, ...(deps.config.wwwSiteOrigin ? [deps.config.wwwSiteOrigin] : [])];
}

function htmlPage(c: Context<AppEnv>, body: string, status: 200 | 404 | 409, csp: string) {
  c.header('Content-Security-Policy', csp);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.html(body, status);
}

/** The pages a visitor sees: the preview (progress, prototype, failure) and the prototype document. */
export function pageViews(ports: PrototypePorts) {
  return createRouter()
    .openapi(previewRoute, async (c) => {
      const deps = c.env.deps;
      const { id } = c.req.valid('param');
      const ctx = prototypeContext(ports, c.env.logger);
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
      // The prototype names the lead's company and goal: no cache keeps it (docs/privacy.md).
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      c.header('Cross-Origin-Resource-Policy', 'same-origin');
      return c.html(result.html ?? '', 200) as never;
    });
}
