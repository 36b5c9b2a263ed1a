import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireJson } from '../../http/body.ts';
import { clientOrigin, normalizeIp } from '../../http/client-ip.ts';
import type { AppEnv } from '../../http/env.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import {
  ADMIN_KEY_OPTIONAL,
  mayReadPersonalData,
  PRIVATE_IN_PRODUCTION,
  personalDataListGuard,
} from '../../http/personal-data-lists.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { requireHeaderSecret, secretMatches } from '../../http/secrets.ts';
import { maskContactDetails } from '../../text/contact-details.ts';
import type { AnalyticsContextInput, ConversionRecorder } from '../analytics/port.ts';
import {
  type ChatPrototypeOutcome,
  createPrototypeForChat,
  type PrototypePorts,
  repeatedChatPrototype,
} from '../prototypes/port.ts';
import { LeadRefusal } from './errors.ts';
import { CHAT_SESSION_ID_MAX, END_USER_IP_HEADER, LEAD_SUBMIT_WINDOW_MS } from './limits.ts';
import type { PrototypeQuota } from './quota.ts';
import {
  LeadCreated,
  LeadIdParam,
  LeadList,
  LeadListQuery,
  LeadSubmission,
  LeadView,
  LookupQuery,
  LookupResponse,
} from './schemas.ts';
import { findLeadByEmail, getLead, type Lead, listLeads } from './store.ts';
import { submitLead } from './submit.ts';

/** The public-write limit of POST /api/leads per client IP; runs before anything else. */
const submitRateLimit = rateLimit({
  name: 'leads',
  limit: (config) => config.leadsRateLimit,
  windowMs: LEAD_SUBMIT_WINDOW_MS,
});

/**
 * The visitor's IP for the prototype quota's IP bucket. A trusted caller (the sales agent, holding the
 * chat key) calls from its own address for every visitor, so it names the visitor in
 * `X-End-User-IP`; without that header a trusted request has no IP bucket (the e-mail bucket still
 * holds), and an untrusted one is the client itself.
 */
function quotaIp(c: Context<AppEnv>, trusted: boolean): string | null {
  if (trusted) return normalizeIp(c.req.header(END_USER_IP_HEADER));
  return clientOrigin(c, c.env.deps.config.trustProxy).ip;
}

/** A refused submission as the contract's error; nothing was stored. */
function toApiError(error: unknown): unknown {
  if (!(error instanceof LeadRefusal)) return error;
  switch (error.reason) {
    case 'invalid':
      return new ApiError('VALIDATION_ERROR', error.message);
    case 'quota': {
      const quota = error.quota!;
      return new ApiError('RATE_LIMITED', error.message, {
        headers: { 'Retry-After': String(quota.retryAfterSeconds) },
        details: { rateLimit: quota.usage },
      });
    }
    case 'captcha_failed':
      return new ApiError('CAPTCHA_FAILED', error.message);
    case 'captcha_unavailable':
      return new ApiError('EXTERNAL_SERVICE_ERROR', error.message);
    case 'in_progress':
      return new ApiError('CONFLICT', error.message);
  }
}

/** A chat prototype that was not made: used-up quota is 429 (with Retry-After), any other failure 502. */
function chatPrototypeError(failure: Extract<ChatPrototypeOutcome, { ok: false }>['failure']) {
  return failure === 'quota'
    ? { status: 429 as const, code: 'RATE_LIMITED' as const }
    : { status: 502 as const, code: 'EXTERNAL_SERVICE_ERROR' as const };
}

export function toLeadView(lead: Lead): z.infer<typeof LeadView> {
  return {
    id: lead.id,
    status: lead.status,
    classification: lead.classification,
    classifiedBy: lead.classifiedBy,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    company: lead.company,
    position: lead.position,
    steps: { ...lead.steps },
    language: lead.language,
    sourceUrl: lead.sourceUrl,
    prototypeKind: lead.prototypeKind,
    pipedrive: lead.pipedrive,
    createdAt: new Date(lead.createdAt).toISOString(),
    updatedAt: new Date(lead.updatedAt).toISOString(),
  };
}

/** Anyone (with the CAPTCHA), or the chat with its key (the trusted path, which skips the CAPTCHA). */
const ANYONE_OR_CHAT: Record<string, string[]>[] = [{}, { ChatApiKey: [] }];

const createLeadRoute = createRoute({
  method: 'post',
  path: '/api/leads',
  operationId: 'createLead',
  tags: ['Leads'],
  summary: 'Submit the project wizard: create a lead',
  description:
    'Order: a per-IP rate limit (30 per hour), a repeat of an identical submission within 10 minutes ' +
    'returns the first lead, the monthly prototype quota when `steps.prototype` is `landing` or ' +
    '`application` (429 with `Retry-After`), then, unless a valid `X-Chat-Api-Key` is sent, the wizard ' +
    'values and the CAPTCHA (`recaptchaToken`). The lead is classified (lead, spam or vendor) and stored; ' +
    'spam gets no side effect, a vendor a polite decline e-mail, a lead the CRM sync (outcome in ' +
    '`pipedrive`) and the confirmation and notification e-mails (queued). A trusted chat submission of a ' +
    'prototype-eligible lead also creates the prototype before answering (`prototype` in the response); ' +
    'when that fails the answer is 502 with `success: false` (the lead is stored all the same).',
  security: ANYONE_OR_CHAT,
  middleware: [submitRateLimit, requireJson] as const,
  request: {
    headers: z.object({
      'x-chat-api-key': z.string().optional().openapi({ description: 'Trusted chat path: skips CAPTCHA' }),
      'x-chat-session-id': z
        .string()
        .max(CHAT_SESSION_ID_MAX, `must be at most ${CHAT_SESSION_ID_MAX} characters`)
        .optional()
        .openapi({
          description:
            'Trusted chat path only: the chat session the lead comes from, kept with the lead so that ' +
            'erasing the person erases that conversation too (ignored without a valid `X-Chat-Api-Key`)',
        }),
    }),
    body: { required: true, content: { 'application/json': { schema: LeadSubmission } } },
  },
  responses: {
    200: {
      description: 'The lead was stored',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: LeadCreated } },
    },
    ...errorResponses({
      400: 'VALIDATION_ERROR (bad input, unknown wizard value) or CAPTCHA_FAILED',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      429: 'RATE_LIMITED: submissions per IP, or the monthly prototype quota (with `rateLimit`)',
      502: 'EXTERNAL_SERVICE_ERROR: the CAPTCHA service could not be reached, or (trusted chat path) the prototype could not be created; the body then also carries the lead fields, `success: false`',
    }),
  },
});

const lookupRoute = createRoute({
  method: 'get',
  path: '/api/leads/lookup',
  operationId: 'lookupLead',
  tags: ['Leads'],
  summary: 'Find a lead by e-mail and report the monthly prototype usage',
  description:
    'Requires `X-Chat-Api-Key`. The e-mail is trimmed and compared case-insensitively. Usage is the ' +
    "stricter of the visitor's IP bucket (the IP named in `X-End-User-IP`, else the one stored with the " +
    'lead) and the e-mail bucket, per kind, for the current UTC month.',
  middleware: [requireHeaderSecret('X-Chat-Api-Key', (config) => config.secrets.chat)] as const,
  security: [{ ChatApiKey: [] }],
  request: { query: LookupQuery },
  responses: {
    200: { description: 'The lookup', content: { 'application/json': { schema: LookupResponse } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED' }),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/leads',
  operationId: 'listLeads',
  tags: ['Leads'],
  summary: 'List leads, newest first',
  description: `\`page\` (default 1) and \`limit\` (default 20, at most 100), or \`all=true\` for every lead. ${PRIVATE_IN_PRODUCTION}`,
  security: ADMIN_KEY_OPTIONAL,
  middleware: [personalDataListGuard] as const,
  request: { query: LeadListQuery },
  responses: {
    200: { description: 'A page of leads', content: { 'application/json': { schema: LeadList } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED (production, without the admin key)' }),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/leads/{id}',
  operationId: 'getLead',
  tags: ['Leads'],
  summary: 'One lead',
  description:
    'Open (the preview flow reads it). Deliberate difference from the spec: with `NODE_ENV=production` ' +
    'the answer leaves out `email` and `phone` unless a valid `X-Admin-Api-Key` is sent, so a lead id ' +
    '(which travels in preview links) does not reveal how to reach the person, and `sourceUrl` comes ' +
    'without its query string and fragment, contact details in its path masked (a form page prefilled ' +
    'from a link may carry them there); ' +
    '`PUBLIC_PERSONAL_DATA_LISTS=true` restores them for everyone.',
  security: ADMIN_KEY_OPTIONAL,
  request: { params: LeadIdParam },
  responses: {
    200: {
      description: 'The lead',
      content: { 'application/json': { schema: z.object({ success: z.literal(true), lead: LeadView }) } },
    },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND' }),
  },
});

/** What the leads routes work with besides the infrastructure (built by the module). */
export interface LeadPorts {
  quota: PrototypeQuota;
  /** The chat path's synchronous prototype (rules 4 and 5). */
  prototypes: PrototypePorts;
  /** Analytics: a genuine lead from a page carrying the tracker is a `lead` conversion of its visit. */
  conversions: ConversionRecorder;
}

export function leadRoutes(ports: LeadPorts) {
  /** The browser's own submission only: a trusted caller (the chat agent) is not the visitor's browser. */
  const recordLeadConversion = (c: Context<AppEnv>, context: AnalyticsContextInput) =>
    ports.conversions.record(
      context,
      {
        origin: clientOrigin(c, c.env.deps.config.trustProxy),
        userAgent: c.req.header('user-agent') ?? '',
      },
      'lead',
      c.env.logger,
    );
  return createRouter()
    .openapi(createLeadRoute, async (c) => {
      const deps = c.env.deps;
      const trusted = secretMatches(c.req.header('x-chat-api-key'), deps.config.secrets.chat);
      const ip = quotaIp(c, trusted);
      const result = await mapErrors(
        submitLead(
          { ...deps, quota: ports.quota, logger: c.env.logger },
          {
            body: c.req.valid('json'),
            trusted,
            clientIp: ip,
            chatSessionId: c.req.valid('header')['x-chat-session-id']?.trim() || null,
          },
        ),
        toApiError,
      );
      c.env.logger.info(
        { leadId: result.lead.id, status: result.lead.status, duplicate: result.duplicate, trusted },
        'lead submitted',
      );
      const { status } = result.lead;
      if (!trusted && !result.duplicate && status === 'new') {
        await recordLeadConversion(c, c.req.valid('json').analyticsContext);
      }
      const chatPrototype = trusted && result.lead.prototypeKind && status !== 'spam' && status !== 'vendor';
      if (chatPrototype && (result.duplicate || status === 'new')) {
        // Rules 4 and 5: the chat path creates the prototype now and answers with the real outcome;
        // a repeat of the submission gets the first one's outcome.
        const made = result.duplicate
          ? await repeatedChatPrototype(ports.prototypes, result.lead, c.env.logger)
          : await createPrototypeForChat(ports.prototypes, result.lead.id, c.env.logger);
        if (made.ok) return c.json({ ...result.response, prototype: made.prototype }, 200);
        const answer = chatPrototypeError(made.failure);
        if (made.retryAfterSeconds !== null) c.header('Retry-After', String(made.retryAfterSeconds));
        const error = { code: answer.code, message: made.message, requestId: c.env.requestId };
        return c.json(
          { ...result.response, success: false, prototype: made.prototype, error },
          answer.status,
        ) as never;
      }
      return c.json(result.response, 200);
    })
    .openapi(lookupRoute, async (c) => {
      const deps = c.env.deps;
      const { email } = c.req.valid('query');
      const lead = await findLeadByEmail(deps.db, email);
      if (!lead) return c.json({ exists: false }, 200);
      // Lookup is always trusted (chat key): the visitor's IP comes from the agent, or the lead's own.
      const rateLimit = await ports.quota.usage({ ip: quotaIp(c, true) ?? lead.clientIpHash, email });
      return c.json(
        {
          exists: true,
          name: lead.name,
          company: lead.company ?? '',
          service: lead.steps.service ?? '',
          rateLimit,
        },
        200,
      );
    })
    .openapi(listRoute, async (c) => {
      const query = c.req.valid('query');
      const page = await listLeads(c.env.deps.db, {
        page: query.page,
        limit: query.limit,
        all: query.all === 'true',
      });
      return c.json(
        {
          success: true as const,
          leads: page.leads.map(toLeadView),
          total: page.total,
          page: page.page,
          limit: page.limit,
          totalPages: page.limit > 0 ? Math.ceil(page.total / page.limit) : 0,
        },
        200,
      );
    })
    .openapi(getRoute, async (c) => {
      const lead = await getLead(c.env.deps.db, c.req.valid('param').id);
      if (!lead) throw new ApiError('NOT_FOUND', 'No lead has this id.');
      const view = toLeadView(lead);
      if (mayReadPersonalData(c)) return c.json({ success: true as const, lead: view }, 200);
      const { email: _email, phone: _phone, ...withoutContact } = view;
      const sourceUrl = pageOnly(view.sourceUrl);
      return c.json({ success: true as const, lead: { ...withoutContact, sourceUrl } }, 200);
    });
}

/**
 * The form's page without what it was opened with: a page prefilled from a link may carry the
 * person's address or phone in its query string, fragment or path.
 */
function pageOnly(url: string | null): string | null {
  if (url === null) return null;
  const cut = url.search(/[?#]/);
  return maskContactDetails(cut < 0 ? url : url.slice(0, cut));
}
