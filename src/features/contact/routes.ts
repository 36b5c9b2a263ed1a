import { createRoute, z } from '@hono/zod-openapi';
import { clientOrigin } from '../../http/client-ip.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError } from '../../http/errors.ts';
import {
  acceptLanguage,
  answersWithPage,
  formErrorPage,
  formPageAnswer,
  siteOrigins,
  siteRedirect,
  thankYouPage,
} from '../../http/form-pages.ts';
import { createRouter } from '../../http/openapi.ts';
import {
  ADMIN_KEY_OPTIONAL,
  PRIVATE_IN_PRODUCTION,
  personalDataListGuard,
} from '../../http/personal-data-lists.ts';
import { rateLimiter } from '../../http/rate-limit.ts';
import { RATE_LIMIT_HEADER } from '../../http/rate-limit-fields.ts';
import { normalizeLanguage } from '../../text/language.ts';
import { describeZodError } from '../../text/validation-message.ts';
import type { ConversionRecorder } from '../analytics/port.ts';
import { readContactFields } from './form-body.ts';
import { HONEYPOT_FIELD, CONTACT_LIMITS as L } from './limits.ts';
import { ContactBody, ContactCreated, ContactList, ContactListQuery } from './schemas.ts';
import { contactView, listContacts } from './store.ts';
import { submitContact } from './submit.ts';

export const CONTACT_PATH = '/api/contact';

/** Per client IP, counted once the submission is known to be valid (a 400 costs nothing). */
const contactRate = rateLimiter({
  name: 'contact',
  limit: L.perIp.limit,
  windowMs: L.perIp.windowMs,
  message: 'Too many messages from this address; please try again later.',
});

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/** Documentation of the submit route; the handler reads the body itself (three content types). */
const submitDoc = createRoute({
  method: 'post',
  path: CONTACT_PATH,
  operationId: 'submitContactForm',
  tags: ['Contact'],
  security: [],
  summary: 'Submit the contact form (JSON or a plain HTML form)',
  description:
    'Takes the same fields and limits as `application/json`, `application/x-www-form-urlencoded` or ' +
    '`multipart/form-data` (fields only: a file part → 415), so a plain `<form method="post">` works. ' +
    'The message is classified as support contact-us requests are: a genuine one is stored and e-mailed ' +
    'to SUPPORT_EMAIL (Reply-To the visitor) through the durable mail queue, a vendor pitch gets the ' +
    'polite decline, spam is stored and dropped; the answer is the same. A filled-in honeypot ' +
    `(\`${HONEYPOT_FIELD}\`) is stored as spam and answered as a success. JSON (and a form sent with an ` +
    "`Accept` asking for JSON) gets 201 JSON. A browser's form post gets a 303 to `redirect` (a URL on " +
    "the site's own origins) or, without one, a thank-you page in the submission's language; its errors " +
    `are pages too (same statuses). Rate limit: ${L.perIp.limit} per client IP per hour, counting valid ` +
    'submissions only.',
  request: {
    body: {
      required: true,
      content: {
        'application/json': { schema: ContactBody },
        'application/x-www-form-urlencoded': { schema: ContactBody },
        'multipart/form-data': { schema: ContactBody },
      },
    },
  },
  responses: {
    201: {
      description: 'Stored (JSON clients)',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: ContactCreated } },
    },
    200: {
      ...html("The thank-you page (a browser's form post without `redirect`)"),
      headers: RATE_LIMIT_HEADERS,
    },
    303: {
      description: "A browser's form post with `redirect`: sent there",
      headers: { Location: { description: 'The `redirect` URL', schema: { type: 'string' } } },
    },
    ...errorResponses({
      400: 'VALIDATION_ERROR: a field breaks its rule, `redirect` is not on the site, or the body is malformed',
      415: 'UNSUPPORTED_MEDIA_TYPE: not JSON or a form, or a file part',
      429: 'RATE_LIMITED',
    }),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/contact',
  operationId: 'listContactSubmissions',
  tags: ['Contact'],
  summary: 'List contact submissions, newest first',
  description: `Paginated with \`page\` and \`limit\`, or every submission with \`?all=true\` (pages of ${L.list.allCap}: past that, \`page=2\`…). ${PRIVATE_IN_PRODUCTION}`,
  security: ADMIN_KEY_OPTIONAL,
  middleware: [personalDataListGuard] as const,
  request: { query: ContactListQuery },
  responses: {
    200: { description: 'Submissions', content: { 'application/json': { schema: ContactList } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED: production, without the admin key' }),
  },
});

/** Analytics: a genuine message sent from a page carrying the tracker is a `lead` conversion. */
export function contactRoutes(conversions: ConversionRecorder) {
  const router = createRouter();
  router.openAPIRegistry.registerPath(submitDoc);
  router.post(CONTACT_PATH, async (c) => {
    const page = answersWithPage(c.req.header('content-type'), c.req.header('accept'));
    let language = normalizeLanguage(acceptLanguage(c.req.header('accept-language')));
    try {
      const fields = await readContactFields(c);
      // Read before the fields are checked, so a refusal is a page in the visitor's language too.
      const named = fields.language || fields.lang;
      if (typeof named === 'string') language = normalizeLanguage(named.slice(0, L.languageLength));
      const parsed = ContactBody.safeParse(fields);
      if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error));
      const body = parsed.data;
      const redirect = body.redirect ? siteRedirect(body.redirect, siteOrigins(c)) : null;
      await contactRate(c);
      const row = await submitContact(
        { ...c.env.deps, logger: c.env.logger },
        {
          name: body.name,
          email: body.email,
          subject: body.subject,
          message: body.message,
          honeypot: Boolean(body[HONEYPOT_FIELD]?.trim()),
          language,
        },
      );
      // A genuine message (classified `new`: not spam, not a vendor) from a tracked page is a `lead`
      // conversion of that visit; the context comes as an object (JSON) or JSON text (the hidden field).
      if (row.status === 'new') {
        await conversions.record(
          body.analyticsContext,
          {
            origin: clientOrigin(c, c.env.deps.config.trustProxy),
            userAgent: c.req.header('user-agent') ?? '',
          },
          'contact',
          c.env.logger,
        );
      }
      if (!page) {
        return c.json(
          { success: true as const, id: row.id, createdAt: new Date(row.created_at).toISOString() },
          201,
        );
      }
      if (redirect) {
        // A low `RateLimit` on a redirect may hold a client back from following it (the draft's advice).
        c.header(RATE_LIMIT_HEADER, undefined);
        return c.redirect(redirect, 303);
      }
      return formPageAnswer(c, thankYouPage(language, body.name, `${c.env.deps.config.siteOrigin}/`), 200);
    } catch (error) {
      if (!page || !(error instanceof ApiError) || error.status >= 500) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      const body = formErrorPage(language, error, `${c.env.deps.config.siteOrigin}/`);
      return formPageAnswer(c, body, error.status);
    }
  });
  return router.openapi(listRoute, async (c) => {
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
