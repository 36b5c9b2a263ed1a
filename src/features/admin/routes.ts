import { createRoute, z } from '@hono/zod-openapi';
import { notModified } from '../../http/conditional.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import { outboxCounts } from '../../integrations/mail/index.ts';
import { leadCounts } from './query.ts';
import { SummaryResponse } from './schemas.ts';
import { loadStaticFiles } from './static.ts';
import { analyticsViews } from './views/analytics.ts';
import { classificationViews } from './views/classification.ts';
import { apiErrors, json, security, tags } from './views/common.ts';
import { contactViews } from './views/contact.ts';
import { leadViews } from './views/leads.ts';
import { mailViews } from './views/mail.ts';
import { queueViews } from './views/queues.ts';

const shellRoute = createRoute({
  method: 'get',
  path: '/admin/leads',
  operationId: 'getAdminDashboard',
  // It never touches the database: no 503 for a database outage (openapi-document.ts).
  'x-database': false,
  tags,
  security: [],
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
  operationId: 'getAdminSummary',
  tags,
  security,
  summary: 'Lead counts per status and classification, mail counts, which optional features are on',
  responses: { ...json(SummaryResponse, 'The summary'), ...apiErrors() },
});

/**
 * The admin dashboard: its page, static files and summary here, the API of each of its views in
 * views/ (mounted in the order /openapi.json lists them). Every /admin/api/* route requires the key.
 */
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

  router.use(
    '/admin/api/*',
    requireHeaderSecret('X-Admin-Api-Key', (config) => config.secrets.admin),
  );

  router.get('/admin', (c) => c.redirect('/admin/leads', 302));
  router.get('/admin/static/:file', (c) => {
    const file = files.get(c.req.param('file'));
    if (!file || file === shell) throw new ApiError('NOT_FOUND', `No route matches ${c.req.path}.`);
    const headers = { 'Content-Type': file.contentType, ETag: file.etag, 'Cache-Control': 'no-cache' };
    if (notModified(c.req.raw, file.etag)) return c.body(null, 304, headers);
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
    .route('/', leadViews())
    .route('/', classificationViews())
    .route('/', contactViews())
    .route('/', mailViews())
    .route('/', queueViews())
    .route('/', analyticsViews());
}
