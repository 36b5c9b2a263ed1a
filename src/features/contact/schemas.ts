import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../http/limits.ts';
import { wholeNumberParam } from '../../http/schemas.ts';
import { AnalyticsContext } from '../analytics/port.ts';
import { HONEYPOT_FIELD, CONTACT_LIMITS as L } from './limits.ts';

const text = (max: number, description: string, example: string) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .openapi({ description: `${description} (1–${max} characters)`, example });

export const ContactBody = z
  .object({
    name: text(L.nameLength, 'Sender name', 'Ana Díaz'),
    email: z
      .string()
      .trim()
      .max(L.emailLength)
      .pipe(z.email('must be an e-mail address'))
      .openapi({
        description: `Sender e-mail (at most ${L.emailLength} characters)`,
        example: 'ana@example.com',
      }),
    subject: text(L.subjectLength, 'Subject', 'A new website'),
    message: text(L.messageLength, 'Message', 'We would like a quote for a new site.'),
    redirect: z
      .string()
      .trim()
      .max(L.redirectLength, `must be at most ${L.redirectLength} characters`)
      .nullish()
      .openapi({
        description:
          `Where a browser's form post goes afterwards (303): an absolute URL on one of the site's origins ` +
          `(SITE_ORIGIN, WWW_SITE_ORIGIN, compared exactly); another → 400. Without it a browser gets a ` +
          `thank-you page. JSON answers ignore it once checked (at most ${L.redirectLength} characters).`,
        example: 'https://agency.example/contact/thanks',
      }),
    analyticsContext: AnalyticsContext,
    [HONEYPOT_FIELD]: z
      .string()
      .nullish()
      .openapi({
        description:
          'The honeypot: a field the form hides from people (`<input name="_gotcha" style="display:none" tabindex="-1" autocomplete="off">`). ' +
          'Filled in, the submission is answered as usual but stored as spam and never e-mailed.',
        example: '',
      }),
    language: z
      .string()
      .trim()
      .max(L.languageLength, `must be at most ${L.languageLength} characters`)
      .nullish()
      .openapi({
        description:
          'The language of the thank-you page and of any reply: `es` or `es-*` for Spanish, anything else English. ' +
          'Default: `lang`, else the `Accept-Language` header.',
        example: 'es',
      }),
    lang: z
      .string()
      .trim()
      .max(L.languageLength, `must be at most ${L.languageLength} characters`)
      .nullish()
      .openapi({ description: 'Another name for `language` (which wins when both are given).' }),
  })
  .openapi('ContactSubmission');

export const ContactCreated = z
  .object({
    success: z.literal(true),
    id: z.string().openapi({ example: 'contact_0b8f7e0c-3f0e-4c2e-9c0a-5d9a1e3b7c11' }),
    createdAt: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
  })
  .openapi('ContactCreated');

export const ContactListQuery = z.object({
  page: wholeNumberParam({ min: 1, max: LIMITS.pagination.maxPage, fallback: 1 }),
  limit: wholeNumberParam({
    min: 1,
    max: L.list.maxLimit,
    fallback: L.list.defaultLimit,
    description: `Submissions per page (1–${L.list.maxLimit}, default ${L.list.defaultLimit}).`,
  }),
  all: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      description: `\`true\`: every submission, newest first, in pages of ${L.list.allCap} (a given \`limit\` is still checked, then not used; \`page\` reaches past the first ${L.list.allCap}).`,
    }),
});

export const StoredContact = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    status: z.enum(['new', 'spam', 'vendor']).openapi({
      description:
        'What became of it: `new` (e-mailed to the team), `spam` (classified spam or the honeypot filled: dropped), `vendor` (a sales pitch: declined).',
    }),
    createdAt: z.string(),
  })
  .openapi('StoredContact');

export const ContactList = z
  .object({
    success: z.literal(true),
    submissions: z.array(StoredContact),
    pagination: z.object({
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
  })
  .openapi('ContactList');
