import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../http/limits.ts';
import { wholeNumberParam } from '../../http/schemas.ts';
import { CONTACT_LIMITS as L } from './limits.ts';

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
