import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../../http/openapi.ts';
import { listOutbox, outboxCounts } from '../../../integrations/mail/index.ts';
import { OutboxPage, OutboxQuery } from '../schemas.ts';
import { apiErrors, json, messageView, security, tags } from './common.ts';

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

/** The mail view: the outbox and its delivery state. */
export function mailViews() {
  return createRouter().openapi(outboxRoute, async (c) => {
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
  });
}
