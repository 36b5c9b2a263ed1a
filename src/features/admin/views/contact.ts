import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../../http/openapi.ts';
import { contactView, listContacts } from '../../contact/port.ts';
import { ContactPage, ContactQuery } from '../schemas.ts';
import { apiErrors, json, security, tags } from './common.ts';

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

/** The contact view: the contact form's submissions. */
export function contactViews() {
  return createRouter().openapi(contactRoute, async (c) => {
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
  });
}
