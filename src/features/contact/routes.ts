import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../http/body.ts';
import { clientOrigin, limitKey } from '../../http/client-ip.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import {
  ADMIN_KEY_OPTIONAL,
  PRIVATE_IN_PRODUCTION,
  personalDataListGuard,
} from '../../http/personal-data-lists.ts';
import { CONTACT_LIMITS as L } from './limits.ts';
import { ContactBody, ContactCreated, ContactList, ContactListQuery } from './schemas.ts';
import { contactView, listContacts, saveContact } from './store.ts';

const submitRoute = createRoute({
  method: 'post',
  path: '/api/contact',
  tags: ['Contact'],
  summary: 'Submit the contact form',
  description: `Validates and stores the submission; answers 201. Rate limit: ${L.perIp.limit} per client IP per hour.`,
  middleware: [requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ContactBody } } } },
  responses: {
    201: { description: 'Stored', content: { 'application/json': { schema: ContactCreated } } },
    400: { description: 'Invalid input (`VALIDATION_ERROR`)' },
    415: { description: 'Not JSON' },
    429: { description: 'Rate limited (`RATE_LIMITED`, with Retry-After)' },
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/contact',
  tags: ['Contact'],
  summary: 'List contact submissions, newest first',
  description: `Paginated with \`page\` and \`limit\`, or every submission with \`?all=true\` (pages of ${L.list.allCap}: past that, \`page=2\`…). ${PRIVATE_IN_PRODUCTION}`,
  security: ADMIN_KEY_OPTIONAL,
  middleware: [personalDataListGuard] as const,
  request: { query: ContactListQuery },
  responses: {
    200: { description: 'Submissions', content: { 'application/json': { schema: ContactList } } },
    400: { description: 'Invalid query (`VALIDATION_ERROR`)' },
    401: { description: 'Production without the admin key (`UNAUTHORIZED`)' },
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
