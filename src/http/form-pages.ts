import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import Negotiator from 'negotiator';
import { escapeHtml } from '../integrations/mail/index.ts';
import { isFormContentType } from './body.ts';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

const LANGUAGES = ['en', 'es'] as const;
type Language = (typeof LANGUAGES)[number];

/**
 * Whether the answer is a page: a plain HTML form posted by the browser (a form encoding, and an
 * `Accept` that does not ask for JSON). Scripts that post a form and want JSON say so in `Accept`,
 * as Formspree asks; a JSON body always gets JSON.
 */
export function answersWithPage(contentType: string | undefined, accept: string | undefined): boolean {
  return isFormContentType(contentType) && !/json/i.test(accept ?? '');
}

/**
 * Stricter, for a route scripts post forms to (a multipart upload through `fetch`, whose default
 * `Accept` is any type): a page only for a form posted as a page navigation, whose `Accept` names
 * `text/html` (every browser's does) and not JSON.
 */
export function answersNavigationWithPage(
  contentType: string | undefined,
  accept: string | undefined,
): boolean {
  return isFormContentType(contentType) && /text\/html/i.test(accept ?? '') && !/json/i.test(accept ?? '');
}

/**
 * The visitor's language from `Accept-Language`: the most preferred of English and Spanish (q-values,
 * `es-MX` for `es`, read by jshttp's negotiator), English for `*`, or undefined when it names neither.
 */
export function acceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  return new Negotiator({ headers: { 'accept-language': header } }).language([...LANGUAGES]) as
    | Language
    | undefined;
}

/**
 * `redirect` as the URL to send the browser to: absolute, http(s), no credentials, and on one of the
 * site's own origins exactly (scheme, host and port), so the form cannot be made an open redirect.
 */
export function siteRedirect(value: string, siteOrigins: readonly string[]): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url && url.username === '' && url.password === '' && siteOrigins.includes(url.origin)) return url.href;
  throw new ApiError(
    'VALIDATION_ERROR',
    `redirect: must be an absolute URL on the site (${siteOrigins.join(' or ')}).`,
  );
}

/** The site's own origins, where `redirect` may send the browser. */
export function siteOrigins(c: Context<AppEnv>): string[] {
  const { siteOrigin, wwwSiteOrigin } = c.env.deps.config;
  return wwwSiteOrigin ? [siteOrigin, wwwSiteOrigin] : [siteOrigin];
}

/** A page as the answer to a browser's form post: never cached, loading and running nothing. */
export function formPageAnswer(c: Context<AppEnv>, body: string, status: ContentfulStatusCode): Response {
  c.header('Content-Security-Policy', PAGE_CSP);
  c.header('Cache-Control', 'no-store');
  return c.html(body, status);
}

/** The pages load nothing and run nothing: inline style only. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TEXT = {
  en: {
    thanksTitle: 'Thank you',
    thanks: (name: string) => `Thank you, ${name}!`,
    received: 'We received your message and will reply soon.',
    ticketReceived: (id: string) => `We received your ticket ${id} and will reply by e-mail.`,
    failedTitle: 'Your message was not sent',
    failed: 'Your message was not sent.',
    fix: 'Please go back, correct it and send it again.',
    later: 'Please try again later.',
    back: 'Back to the site',
  },
  es: {
    thanksTitle: 'Gracias',
    thanks: (name: string) => `¡Gracias, ${name}!`,
    received: 'Recibimos tu mensaje y te responderemos pronto.',
    ticketReceived: (id: string) => `Recibimos tu ticket ${id} y te responderemos por correo.`,
    failedTitle: 'Tu mensaje no se envió',
    failed: 'Tu mensaje no se envió.',
    fix: 'Vuelve atrás, corrígelo y envíalo de nuevo.',
    later: 'Inténtalo de nuevo más tarde.',
    back: 'Volver al sitio',
  },
} as const;

function page(language: Language, title: string, body: string, siteUrl: string): string {
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:36rem;margin:4rem auto;padding:0 1.5rem}</style>' +
    `</head><body><main>${body}<p><a href="${escapeHtml(siteUrl)}">${escapeHtml(TEXT[language].back)}</a></p></main></body></html>`
  );
}

/**
 * The thank-you page of a browser's form post without `redirect`; the visitor's name is escaped. A
 * support ticket's page names the ticket.
 */
export function thankYouPage(language: Language, name: string, siteUrl: string, ticketId?: string): string {
  const t = TEXT[language];
  const received = ticketId === undefined ? t.received : t.ticketReceived(ticketId);
  return page(
    language,
    t.thanksTitle,
    `<h1>${escapeHtml(t.thanks(name))}</h1><p>${escapeHtml(received)}</p>`,
    siteUrl,
  );
}

/** A refused form post as a page: what was wrong (the API's message, escaped) and what to do. */
export function formErrorPage(language: Language, error: ApiError, siteUrl: string): string {
  const t = TEXT[language];
  const advice = error.code === 'RATE_LIMITED' ? t.later : t.fix;
  return page(
    language,
    t.failedTitle,
    `<h1>${escapeHtml(t.failed)}</h1><p>${escapeHtml(error.message)}</p><p>${escapeHtml(advice)}</p>`,
    siteUrl,
  );
}
