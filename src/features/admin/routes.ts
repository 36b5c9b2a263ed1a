import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../../http/error-responses.ts';
import { ApiError, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import { listOutbox, type OutboxMessage, outboxCounts } from '../../integrations/mail/index.ts';
import { AnalyticsRefusal } from '../analytics/errors.ts';
import { Stats, StatsQuery } from '../analytics/schemas.ts';
import { contactView, listContacts } from '../contact/store.ts';
import { getLead } from '../leads/store.ts';
import { analyticsStats } from './analytics.ts';
import { ADMIN_LIMITS } from './limits.ts';
import { type AdminLeadRow, leadCounts, leadExtras, queryLeads } from './query.ts';
import { isKnownQueue, queuesOverview } from './queues.ts';
import {
  AdminLeadDetail,
  AdminLeadPage,
  AdminLeadsQuery,
  ContactPage,
  ContactQuery,
  LeadIdPath,
  OutboxPage,
  OutboxQuery,
  QueueJobParams,
  QueueParams,
  QueuesResponse,
  RetryResponse,
  SummaryResponse,
} from './schemas.ts';
import { ADMIN_SECURITY_HEADERS, loadStaticFiles } from './static.ts';

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  200: { description, content: { 'application/json': { schema } } },
});

const security = [{ AdminApiKey: [] }];
const tags = ['Admin'];
const apiErrors = (extra: Record<number, string> = {}) =>
  errorResponses({ 401: 'UNAUTHORIZED: missing or wrong X-Admin-Api-Key', ...extra });

const previewPath = (id: string) => `/api/leads/${encodeURIComponent(id)}/preview`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function rowView(row: AdminLeadRow) {
  return {
    ...row,
    previewUrl: row.prototypeKind ? previewPath(row.id) : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function messageView(m: OutboxMessage, fullText: boolean) {
  return {
    id: m.id,
    idempotencyKey: m.idempotencyKey,
    transport: m.transport,
    status: m.status,
    from: m.from,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    replyTo: m.replyTo,
    subject: m.subject,
    text:
      fullText || m.text.length <= ADMIN_LIMITS.bodyPreview
        ? m.text
        : `${m.text.slice(0, ADMIN_LIMITS.bodyPreview)}…`,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
    })),
    attempts: m.attempts,
    lastError: m.lastError,
    createdAt: new Date(m.createdAt).toISOString(),
    sentAt: iso(m.sentAt),
  };
}

const shellRoute = createRoute({
  method: 'get',
  path: '/admin/leads',
  tags,
  summary: 'The admin dashboard page (an HTML shell; its data comes from /admin/api/* with the key)',
  description:
    'No data is embedded: the page asks for the admin key, keeps it in sessionStorage and sends it as ' +
    '`X-Admin-Api-Key`. Served with a strict Content-Security-Policy (scripts and styles from this ' +
    'origin only, no inline code), `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`.',
  responses: { 200: { description: 'The page', content: { 'text/html': { schema: z.string() } } } },
});

const summaryRoute = createRoute({
  method: 'get',
  path: '/admin/api/summary',
  tags,
  security,
  summary: 'Lead counts per status and classification, mail counts, which optional features are on',
  responses: { ...json(SummaryResponse, 'The summary'), ...apiErrors() },
});

const leadsRoute = createRoute({
  method: 'get',
  path: '/admin/api/leads',
  tags,
  security,
  summary: 'Leads with filters, free-text search, sorting and pagination',
  description:
    '`status` and `classification` take comma-separated values; `from`/`to` a date (UTC day) or an ISO ' +
    'date-time; `q` searches name, e-mail and company (case-insensitive) or matches a lead id. `limit` ' +
    'above the maximum is capped (the response reports the size applied); anything malformed is a 400.',
  request: { query: AdminLeadsQuery },
  responses: { ...json(AdminLeadPage, 'A page of leads'), ...apiErrors({ 400: 'VALIDATION_ERROR' }) },
});

const leadRoute = createRoute({
  method: 'get',
  path: '/admin/api/leads/{id}',
  tags,
  security,
  summary: "One lead's full record: wizard answers, classification, CRM outcome, prototype, e-mails",
  request: { params: LeadIdPath },
  responses: { ...json(AdminLeadDetail, 'The lead'), ...apiErrors({ 404: 'NOT_FOUND' }) },
});

const outboxRoute = createRoute({
  method: 'get',
  path: '/admin/api/outbox',
  tags,
  security,
  summary: 'The mail outbox (every e-mail the service sent or keeps) and its delivery state',
  request: { query: OutboxQuery },
  responses: {
    ...json(OutboxPage, 'A page of e-mails, newest first'),
    ...apiErrors({ 400: 'VALIDATION_ERROR' }),
  },
});

const contactRoute = createRoute({
  method: 'get',
  path: '/admin/api/contact',
  tags,
  security,
  summary: 'Contact-form submissions (POST /api/contact), newest first',
  request: { query: ContactQuery },
  responses: {
    ...json(ContactPage, 'A page of submissions'),
    ...apiErrors({ 400: 'VALIDATION_ERROR' }),
  },
});

const queuesRoute = createRoute({
  method: 'get',
  path: '/admin/api/queues',
  tags,
  security,
  summary: "The durable queues' counts, health and latest dead jobs",
  responses: { ...json(QueuesResponse, 'Every registered queue'), ...apiErrors() },
});

const retryAllRoute = createRoute({
  method: 'post',
  path: '/admin/api/queues/{name}/retry',
  tags,
  security,
  summary: 'Puts every dead job of the queue back to pending with fresh attempts',
  request: { params: QueueParams },
  responses: {
    ...json(RetryResponse, 'How many jobs were retried'),
    ...apiErrors({ 404: 'NOT_FOUND: no such queue' }),
  },
});

const retryOneRoute = createRoute({
  method: 'post',
  path: '/admin/api/queues/{name}/jobs/{id}/retry',
  tags,
  security,
  summary: 'Puts one dead job back to pending with fresh attempts',
  request: { params: QueueJobParams },
  responses: {
    ...json(RetryResponse, 'The job was retried'),
    ...apiErrors({ 404: 'NOT_FOUND: no such queue, or no dead job with that id' }),
  },
});

/** The charts' stats refuse a bad date range as GET /api/analytics/stats does: 400. */
function toApiError(error: unknown): unknown {
  return error instanceof AnalyticsRefusal ? new ApiError('VALIDATION_ERROR', error.message) : error;
}

const analyticsRoute = createRoute({
  method: 'get',
  path: '/admin/api/analytics',
  tags,
  security,
  summary: 'Analytics statistics for the charts (the shape of GET /api/analytics/stats)',
  request: { query: StatsQuery },
  responses: { ...json(Stats, 'The statistics'), ...apiErrors({ 400: 'VALIDATION_ERROR' }) },
});

export function adminRoutes() {
  const files = loadStaticFiles();
  const shell = files.get('admin.html');
  if (!shell) throw new Error('src/features/admin/static/admin.html is missing');

  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'AdminApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Admin-Api-Key',
    description: 'ADMIN_API_SECRET (never the chat secret)',
  });

  router.use('/admin/*', async function adminHeaders(c, next) {
    await next();
    for (const [name, value] of Object.entries(ADMIN_SECURITY_HEADERS)) c.res.headers.set(name, value);
    if (c.req.path.startsWith('/admin/api/')) c.res.headers.set('Cache-Control', 'no-store');
  });
  router.use(
    '/admin/api/*',
    requireHeaderSecret('X-Admin-Api-Key', (config) => config.secrets.admin),
  );

  router.get('/admin', (c) => c.redirect('/admin/leads', 302));
  router.get('/admin/static/:file', (c) => {
    const file = files.get(c.req.param('file'));
    if (!file || file === shell) throw new ApiError('NOT_FOUND', `No route matches ${c.req.path}.`);
    const headers = { 'Content-Type': file.contentType, ETag: file.etag, 'Cache-Control': 'no-cache' };
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    return c.body(file.body, 200, headers);
  });

  return router
    .openapi(shellRoute, (c) =>
      c.body(shell.body, 200, { 'Content-Type': shell.contentType, 'Cache-Control': 'no-cache' }),
    )
    .openapi(summaryRoute, async (c) => {
      const deps = c.env.deps;
      const [leads, counts] = await Promise.all([leadCounts(deps.db), outboxCounts(deps.db)]);
      return c.json(
        {
          success: true as const,
          leads,
          mail: { transport: deps.mail.kind, counts },
          features: {
            analytics: true,
            prototypes: deps.worker.queueNames().some((n) => /prototype/i.test(n)),
          },
        },
        200,
      );
    })
    .openapi(leadsRoute, async (c) => {
      const q = c.req.valid('query');
      const to = q.to ? (q.to.dateOnly ? q.to.ms + 86_400_000 : q.to.ms + 1) : undefined;
      const { leads, total } = await queryLeads(c.env.deps.db, {
        statuses: q.status,
        classifications: q.classification,
        from: q.from?.ms,
        to,
        q: q.q,
        sort: q.sort,
        order: q.order,
        page: q.page,
        limit: q.limit,
      });
      return c.json(
        {
          success: true as const,
          leads: leads.map(rowView),
          total,
          page: q.page,
          limit: q.limit,
          totalPages: Math.ceil(total / q.limit),
          sort: q.sort,
          order: q.order,
        },
        200,
      );
    })
    .openapi(leadRoute, async (c) => {
      const { id } = c.req.valid('param');
      const db = c.env.deps.db;
      const [lead, extras] = await Promise.all([getLead(db, id), leadExtras(db, id)]);
      if (!lead || !extras) throw new ApiError('NOT_FOUND', 'No lead has this id.');
      const mail = await listOutbox(db, { keyPrefix: `${id}:`, limit: ADMIN_LIMITS.leadEmails });
      const state =
        lead.status === 'generating' || lead.status === 'completed' || lead.status === 'failed'
          ? lead.status
          : 'not-started';
      return c.json(
        {
          success: true as const,
          lead: {
            id: lead.id,
            status: lead.status,
            classification: lead.classification,
            classificationReason: lead.classificationReason,
            classifiedBy: lead.classifiedBy,
            name: lead.name,
            email: lead.email,
            phone: lead.phone,
            company: lead.company,
            position: lead.position,
            steps: { ...lead.steps },
            language: lead.language,
            sourceUrl: lead.sourceUrl,
            trusted: extras.trusted,
            createdAt: new Date(lead.createdAt).toISOString(),
            updatedAt: new Date(lead.updatedAt).toISOString(),
          },
          crm: { outcome: lead.pipedrive, ...extras.crm },
          prototype: lead.prototypeKind
            ? { kind: lead.prototypeKind, state, previewUrl: previewPath(lead.id) }
            : null,
          emails: mail.messages.map((m) => messageView(m, true)),
        },
        200,
      );
    })
    .openapi(contactRoute, async (c) => {
      const { page, limit } = c.req.valid('query');
      const { rows, total } = await listContacts(c.env.deps.db, (page - 1) * limit, limit);
      return c.json(
        {
          success: true as const,
          submissions: rows.map(contactView),
          total,
          page,
          limit,
          totalPages: Math.ceil(total / limit),
        },
        200,
      );
    })
    .openapi(outboxRoute, async (c) => {
      const q = c.req.valid('query');
      const db = c.env.deps.db;
      const [page, counts] = await Promise.all([
        listOutbox(db, { page: q.page, limit: q.limit, status: q.status }),
        outboxCounts(db),
      ]);
      return c.json(
        {
          success: true as const,
          transport: c.env.deps.mail.kind,
          counts,
          messages: page.messages.map((m) => messageView(m, false)),
          total: page.total,
          page: page.page,
          limit: page.limit,
          totalPages: Math.ceil(page.total / page.limit),
        },
        200,
      );
    })
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
    })
    .openapi(analyticsRoute, async (c) => {
      const stats = await mapErrors(analyticsStats(c.env.deps.db, c.req.valid('query')), toApiError);
      return c.json(stats, 200);
    });
}
