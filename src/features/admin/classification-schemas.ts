import { z } from '@hono/zod-openapi';
import { PipedriveOutcomeSchema } from '../leads/port.ts';
import { CLASSES, ClassifierReasons, ClassifierScore, CorrectionSchema } from './correction-schemas.ts';
import { ADMIN_PAGE } from './limits.ts';
import { csvOf, isoTime, LEAD_STATUSES, limitParam, pageParam } from './schemas.ts';

/** The admin API of classification corrections and of the support contact-us messages. */

export const SUPPORT_MESSAGE_STATUSES = ['new', 'spam', 'vendor'] as const;

export const ClassificationBody = z
  .object({
    classification: z
      .enum(CLASSES, { error: `must be one of: ${CLASSES.join(', ')}` })
      .openapi({ description: 'The class a person decided on', example: 'lead' }),
  })
  .openapi('ClassificationCorrectionRequest');

const correctionResult = {
  success: z.literal(true),
  changed: z.boolean().openapi({
    description:
      'False when the record already had this classification (a repeat, or a concurrent twin that won): nothing was done',
  }),
  classification: z.enum(CLASSES),
  correction: CorrectionSchema.nullable().openapi({
    description: 'What this request did; null when unchanged',
  }),
  corrections: z
    .array(CorrectionSchema)
    .openapi({ description: 'Every correction of the record, oldest first' }),
};

export const LeadCorrectionResponse = z
  .object({ ...correctionResult, id: z.string(), status: z.enum(LEAD_STATUSES) })
  .openapi('AdminLeadCorrection');

export const SupportCorrectionResponse = z
  .object({ ...correctionResult, id: z.string(), status: z.enum(SUPPORT_MESSAGE_STATUSES) })
  .openapi('AdminSupportMessageCorrection');

export const SupportMessageIdPath = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'sup_6f1c2e58-0a0b-4e8a-9b1e-2f0a4c1d9e77' }),
});

export const SupportMessagesQuery = z.object({
  status: csvOf(SUPPORT_MESSAGE_STATUSES, 'status', 'spam,vendor'),
  page: pageParam,
  limit: limitParam(ADMIN_PAGE.maxLimit, ADMIN_PAGE.defaultLimit),
});

export const AdminSupportMessage = z
  .object({
    id: z.string(),
    status: z.enum(SUPPORT_MESSAGE_STATUSES),
    classification: z.enum(CLASSES),
    classificationReason: z.string(),
    classifiedBy: z.enum(['llm', 'builtin']),
    classificationScore: ClassifierScore,
    classificationReasons: ClassifierReasons,
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    subject: z.string().nullable(),
    message: z.string(),
    language: z.enum(['en', 'es']),
    pipedrive: PipedriveOutcomeSchema.nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
    corrections: z.array(CorrectionSchema),
  })
  .openapi('AdminSupportMessage');

export const SupportMessagePage = z
  .object({
    success: z.literal(true),
    messages: z.array(AdminSupportMessage),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('AdminSupportMessagePage');
