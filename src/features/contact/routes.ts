import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../http/body.ts';
import { clientOrigin, limitKey } from '../../http/client-ip.ts';
import { errorResponses } from '../../http/error-responses.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { CONTACT_LIMITS as L } from './limits.ts';
import { ContactBody, ContactCreated, ContactList, ContactListQuery } from './schemas.ts';
import { contactView, listContacts, saveContact } from './store.ts';

const submitRoute = createRoute({
  method: 'post',
  path: '/api/contact',
  operationId: 'submitContactForm',
  tags: ['Contact'],
  security: [],
  summary: 'Submit the contact form',
  description: `Validates and stores the submission; answers 201. Rate limit: ${L.perIp.limit} per client IP per hour.`,
  middleware: [requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ContactBody } } } },
  responses: {
    201: { description: 'Stored', content: { 'application/json': { schema: ContactCreated } } },
    ...errorResponses(400, 415, 429),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/contact',
  operationId: 'listContactSubmissions',
  tags: ['Contact'],
  security: [],
  summary: 'List contact submissions, newest first',
  description: `Paginated with \`page\` and \`limit\`, or every submission with \`?all=true\` (pages of ${L.list.allCap}: past that, \`page=2\`…).`,
  request: { query: ContactListQuery },
  responses: {
    200: { description: 'Submissions', content: { 'application/json': { schema: ContactList } } },
    ...errorResponses(400),
  },
});

export function contactRoutes() {
  return createRouter()
    .openapi(submitRoute, async (c) => {
      const { deps } = c.env;
      const body = c.req.valid('json');
      const client = limitKey(clientOrigin(c, deps.config.trustProxy).ip) ?? 'unknown';
      const limit = await deps.rateLimiter.hit(`contact:${client}`, L.perIp.limit, L.perIp.windowMs);
      if (!limit.allowed) {
        throw new ApiError('RATE_LIMITED', 'Too many messages from this address; please try again later.', {
          headers: { 'Retry-After': String(limit.retryAfterSeconds) },
        });
      }
      const row = await saveContact(deps.db, body);
      return c.json(
        { success: true as const, id: row.id, createdAt: new Date(row.created_at).toISOString() },
        201,
      );
    })
    .openapi(listRoute, async (c) => {
      const query = c.req.valid('query');
      // all=true: pages as large as the cap, so past the cap `page` still reaches every submission.
      const limit = query.all === 'true' ? L.list.allCap : query.limit;
      const { page } = query;
      const { rows, total } = await listContacts(c.env.deps.db, (page - 1) * limit, limit);
      return c.json(
        {
          success: true as const,
          submissions: rows.map(contactView),
          pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
        },
        200,
      );
    });
}
