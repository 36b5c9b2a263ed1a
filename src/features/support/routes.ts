import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../http/body.ts';
import { brokenRequestStatus } from '../../http/broken-request.ts';
import { clientOrigin } from '../../http/client-ip.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode, mapErrors } from '../../http/errors.ts';
import {
  acceptLanguage,
  answersNavigationWithPage,
  formErrorPage,
  formPageAnswer,
  siteOrigins,
  siteRedirect,
  thankYouPage,
} from '../../http/form-pages.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimit, rateLimiter } from '../../http/rate-limit.ts';
import { RATE_LIMIT_HEADER } from '../../http/rate-limit-fields.ts';
import { normalizeLanguage } from '../../text/language.ts';
import type { ConversionRecorder } from '../analytics/port.ts';
import {
  SupportRefusal,
  type SupportRefusalReason,
  UploadRefusal,
  type UploadRefusalReason,
} from './errors.ts';
import { SUPPORT_SEND_RATE, TICKET_RATE, UPLOAD_LIMITS } from './limits.ts';
import { SupportSendBody, SupportSendResponse, TicketCreated, TicketMultipart } from './schemas.ts';
import { sendSupportMessage } from './send.ts';
import { createTicket } from './tickets.ts';

export const TICKETS_PATH = '/api/support/tickets';

const REFUSAL_CODES: Record<SupportRefusalReason, ErrorCode> = {
  invalid: 'VALIDATION_ERROR',
  captcha_failed: 'CAPTCHA_FAILED',
  captcha_unavailable: 'EXTERNAL_SERVICE_ERROR',
};

/**
 * An upload refused while its body streamed in leaves the rest of it unread (a declared size over the
 * limit is never read): `close` tells the client not to reuse the connection.
 */
const UPLOAD_REFUSALS: Record<UploadRefusalReason, { code: ErrorCode; close: boolean }> = {
  not_multipart: { code: 'UNSUPPORTED_MEDIA_TYPE', close: false },
  no_body: { code: 'VALIDATION_ERROR', close: false },
  no_boundary: { code: 'VALIDATION_ERROR', close: false },
  too_large: { code: 'PAYLOAD_TOO_LARGE', close: true },
  file_type: { code: 'UNSUPPORTED_MEDIA_TYPE', close: true },
  timeout: { code: 'REQUEST_TIMEOUT', close: true },
  invalid: { code: 'VALIDATION_ERROR', close: true },
};

/** A refused message, ticket or upload as the contract's error; nothing was stored. */
function toApiError(error: unknown): unknown {
  if (error instanceof SupportRefusal) return new ApiError(REFUSAL_CODES[error.reason], error.message);
  if (error instanceof UploadRefusal) {
    const { code, close } = UPLOAD_REFUSALS[error.reason];
    return new ApiError(code, error.message, close ? { headers: { Connection: 'close' } } : {});
  }
  return error;
}

const sendRoute = createRoute({
  method: 'post',
  path: '/api/support/send',
  operationId: 'sendSupportRequest',
  tags: ['Support'],
  security: [],
  summary: 'Contact-us request',
  description:
    'Per-IP rate limit (20 per hour), then the CAPTCHA (`recaptchaToken`), then classification (lead, ' +
    'spam or vendor). A genuine request is e-mailed to the support address (with the CRM mailbox as ' +
    'blind copy) and becomes a Pipedrive deal; a vendor pitch gets a polite decline e-mail; spam is ' +
    'stored and dropped. The answer is the same in all three cases.',
  middleware: [rateLimit({ name: 'support-send', ...SUPPORT_SEND_RATE }), requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: SupportSendBody } } } },
  responses: {
    200: {
      description: 'Received',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: SupportSendResponse } },
    },
    ...errorResponses({
      400: 'VALIDATION_ERROR or CAPTCHA_FAILED',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      429: 'RATE_LIMITED',
      502: 'EXTERNAL_SERVICE_ERROR: the CAPTCHA service could not be reached',
    }),
  },
});

/** Documentation of the ticket route; the handler reads the multipart body itself while it streams. */
const ticketDoc = createRoute({
  method: 'post',
  path: TICKETS_PATH,
  operationId: 'createSupportTicket',
  tags: ['Support'],
  security: [],
  summary: 'Open a support ticket (multipart, with attachments)',
  description:
    `Per-IP rate limit (20 per hour). Limits enforced while the body streams in: at most ` +
    `${UPLOAD_LIMITS.maxFiles} files (a sixth → 400), ${UPLOAD_LIMITS.maxFileBytes} bytes per file and ` +
    `${UPLOAD_LIMITS.maxTotalFileBytes} in all (→ 413), types checked by the bytes (→ 415), the whole ` +
    'body within UPLOAD_TIMEOUT_MS (→ 408). Then the fields are validated, the CAPTCHA verified, and ' +
    'the ticket and its files stored in one transaction; the customer gets a confirmation e-mail and ' +
    'the support team the ticket with its files. The CAPTCHA token may come as `recaptchaToken` or under ' +
    'its widget’s own field (`g-recaptcha-response`, `cf-turnstile-response`, `h-captcha-response`). ' +
    'A browser’s plain form post (an `Accept` naming `text/html` and not JSON, as `fetch` does not by default) gets pages, as the contact form ' +
    'does: a 303 to `redirect` (a URL on the site), or a thank-you page naming the ticket; a refusal is an ' +
    'HTML page with the same status; `language` (`es`/`en`, else Accept-Language) chooses their language.',
  request: { body: { required: true, content: { 'multipart/form-data': { schema: TicketMultipart } } } },
  responses: {
    200: {
      description: "Ticket created (a browser's form post without `redirect`: the thank-you page)",
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': { schema: TicketCreated },
        'text/html': { schema: { type: 'string' } },
      },
    },
    303: {
      description: "A browser's form post with `redirect`: sent there",
      headers: { Location: { description: 'The `redirect` URL', schema: { type: 'string' } } },
    },
    ...errorResponses({
      400: 'VALIDATION_ERROR (fields, a sixth file, malformed body) or CAPTCHA_FAILED',
      408: 'REQUEST_TIMEOUT: the body stalled or never ended',
      413: 'PAYLOAD_TOO_LARGE: a file or the files together are too large',
      415: 'UNSUPPORTED_MEDIA_TYPE: not multipart, or a file type that is not accepted',
      429: 'RATE_LIMITED',
      502: 'EXTERNAL_SERVICE_ERROR: the CAPTCHA service could not be reached',
    }),
  },
});

/** Analytics: a genuine contact-us message from a page carrying the tracker is a `lead` conversion. */
export function supportRoutes(conversions: ConversionRecorder) {
  const router = createRouter();

  router.openapi(sendRoute, async (c) => {
    const deps = c.env.deps;
    const origin = clientOrigin(c, deps.config.trustProxy);
    const body = c.req.valid('json');
    const result = await mapErrors(
      sendSupportMessage({ ...deps, logger: c.env.logger }, body, origin.ip),
      toApiError,
    );
    // A genuine contact-us message from a page carrying the tracker is a `lead` conversion of that visit.
    if (result.status === 'new') {
      await conversions.record(
        body.analyticsContext,
        { origin, userAgent: c.req.header('user-agent') ?? '' },
        'contact',
        c.env.logger,
      );
    }
    return c.json(result.response, 200);
  });

  router.openAPIRegistry.registerPath(ticketDoc);
  const ticketRate = rateLimiter({ name: 'support-tickets', ...TICKET_RATE });
  router.post(TICKETS_PATH, async (c) => {
    const deps = c.env.deps;
    // A plain HTML form posted by the browser gets pages, as the contact form does (http/form-pages.ts).
    const page = answersNavigationWithPage(c.req.header('content-type'), c.req.header('accept'));
    let language = normalizeLanguage(acceptLanguage(c.req.header('accept-language')));
    const siteUrl = `${deps.config.siteOrigin}/`;
    try {
      await ticketRate(c);
      const { ip } = clientOrigin(c, deps.config.trustProxy);
      // The multipart reader (busboy, file-type) is loaded on the first ticket, not at start-up.
      const { readMultipart } = await import('./multipart.ts');
      const upload = await mapErrors(
        readMultipart(c.req.raw, { timeoutMs: deps.config.uploadTimeoutMs }),
        toApiError,
      );
      const { language: named, redirect: redirectField, fullName } = upload.fields;
      if (typeof named === 'string') language = normalizeLanguage(named.slice(0, 16));
      const redirect =
        page && typeof redirectField === 'string' && redirectField !== ''
          ? siteRedirect(redirectField, siteOrigins(c))
          : null;
      const { ticketId } = await mapErrors(
        createTicket({ ...deps, logger: c.env.logger }, upload, ip),
        toApiError,
      );
      if (!page) return c.json({ success: true as const, ticketId }, 200);
      if (redirect) {
        // A low `RateLimit` on a redirect may hold a client back from following it (the draft's advice).
        c.header(RATE_LIMIT_HEADER, undefined);
        return c.redirect(redirect, 303);
      }
      return formPageAnswer(c, thankYouPage(language, String(fullName ?? ''), siteUrl, ticketId), 200);
    } catch (error) {
      const answerable =
        page &&
        error instanceof ApiError &&
        error.status < 500 &&
        brokenRequestStatus(c.env.incoming, c.env.outgoing) === null;
      if (!answerable) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return formPageAnswer(c, formErrorPage(language, error, siteUrl), error.status);
    }
  });

  return router;
}
