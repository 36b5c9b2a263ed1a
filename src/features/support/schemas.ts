import { z } from '@hono/zod-openapi';
import { optionalText as optional, requiredText as required } from '../../http/schemas.ts';
import { AnalyticsContext } from '../analytics/port.ts';
import { SEND_LIMITS, TICKET_LIMITS, UPLOAD_LIMITS, URGENCIES } from './limits.ts';

const email = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .email('must be a valid e-mail address')
    .openapi({ description: 'E-mail address', example: 'ana@example.com' });

export const SupportSendBody = z
  .object({
    name: required(SEND_LIMITS.name, "The person's name", 'Ana García'),
    email: email(SEND_LIMITS.email),
    company: optional(SEND_LIMITS.company, 'Company name', 'Hotel Sol'),
    subject: optional(SEND_LIMITS.subject, 'Subject', 'A new booking site'),
    message: required(SEND_LIMITS.message, 'The message', 'We would like a new website for our hotel.'),
    recaptchaToken: optional(SEND_LIMITS.recaptchaToken, 'CAPTCHA token (siteverify)', '03AFcWeA…'),
    language: optional(16, 'Language of replies: `es` (or es-*) or English otherwise', 'en'),
    analyticsContext: AnalyticsContext,
  })
  .openapi('SupportSendRequest');
export type SupportSendInput = z.infer<typeof SupportSendBody>;

export const SupportSendResponse = z
  .object({
    success: z.literal(true),
    message: z.string().openapi({ example: 'Thank you! We received your message and will reply soon.' }),
  })
  .openapi('SupportSendResponse');

/** The text fields of a ticket (multipart), validated once the whole body has arrived. */
export const TicketFields = z.object({
  fullName: required(TICKET_LIMITS.fullName, "The customer's name", 'Ana García'),
  email: email(TICKET_LIMITS.email),
  issueType: required(TICKET_LIMITS.issueType, 'Kind of problem (free text, e.g. bug, billing)', 'bug'),
  companyName: optional(TICKET_LIMITS.companyName, 'Company name', 'Hotel Sol'),
  urgency: z.enum(URGENCIES).openapi({ description: 'low, medium, high or critical', example: 'high' }),
  productUrl: optional(
    TICKET_LIMITS.productUrl,
    'Where the problem shows (http or https URL)',
    'https://hotelsol.example/booking',
  ).refine(
    (v) => v === undefined || (/^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v)),
    'must be an http(s) URL',
  ),
  description: required(TICKET_LIMITS.description, 'What happened', 'The booking form fails on step 2.'),
  recaptchaToken: optional(TICKET_LIMITS.recaptchaToken, 'CAPTCHA token (siteverify)', '03AFcWeA…'),
});
export type TicketInput = z.infer<typeof TicketFields>;

/** For /openapi.json only: the multipart body as documented (the route reads it with busboy). */
export const TicketMultipart = TicketFields.extend({
  attachments: z
    .array(z.string().openapi({ format: 'binary' }))
    .max(UPLOAD_LIMITS.maxFiles)
    .optional()
    .openapi({
      description:
        `Up to ${UPLOAD_LIMITS.maxFiles} files in the repeated field \`attachments\`: PNG, JPEG, GIF, WebP, ` +
        `PDF or plain text (checked by their bytes), each at most ${UPLOAD_LIMITS.maxFileBytes} bytes, ` +
        `${UPLOAD_LIMITS.maxTotalFileBytes} bytes together.`,
    }),
}).openapi('SupportTicketRequest');

export const TicketCreated = z
  .object({
    success: z.literal(true),
    ticketId: z.string().openapi({ example: 'TICKET-20261115-7QK2ZD' }),
  })
  .openapi('SupportTicketResponse');
