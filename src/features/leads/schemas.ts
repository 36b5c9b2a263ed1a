import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../http/limits.ts';
import { optionalText as text, wholeNumberParam } from '../../http/schemas.ts';
import { AnalyticsContext } from '../analytics/port.ts';
import { LEAD_LIMITS, LEAD_PAGE } from './limits.ts';

const wizardValue = (description: string, example: string) =>
  text(LEAD_LIMITS.wizardValue, `${description} (one of the wizard's values unless trusted)`, example);

export const LeadSubmission = z
  .object({
    personal: z.object({
      name: z
        .string()
        .trim()
        .min(1, 'is required')
        .max(LEAD_LIMITS.name, `must be at most ${LEAD_LIMITS.name} characters`)
        .openapi({ description: "The person's name", example: 'Ana García' }),
      email_address: z
        .string()
        .trim()
        .max(LEAD_LIMITS.email, `must be at most ${LEAD_LIMITS.email} characters`)
        .email('must be a valid e-mail address')
        .openapi({ description: 'E-mail address', example: 'ana@example.com' }),
      phone_number: text(LEAD_LIMITS.phone, 'Telephone number', '+57 300 000 0000'),
      company: text(LEAD_LIMITS.company, 'Company name', 'Acme S.A.S.'),
      position: text(LEAD_LIMITS.position, 'Job position', 'Marketing lead'),
    }),
    steps: z
      .object({
        initial_choice: wizardValue('help, create or advice', 'create'),
        service: wizardValue('The service wanted', 'build-website'),
        prototype: wizardValue('Prototype kind: landing or application', 'landing'),
        goal: text(LEAD_LIMITS.goal, 'Free text: what the project should achieve', 'More bookings online'),
        industry: wizardValue('Industry', 'hospitality'),
        features: z
          .array(
            z
              .string()
              .trim()
              .max(LEAD_LIMITS.wizardValue, `must be at most ${LEAD_LIMITS.wizardValue} characters`),
          )
          .max(LEAD_LIMITS.features, `must have at most ${LEAD_LIMITS.features} items`)
          .nullish()
          .transform((v) => v?.filter(Boolean))
          .openapi({ description: 'Wanted features (free text items)', example: ['booking', 'payments'] }),
        style: wizardValue('Visual style', 'modernMinimalist'),
        audience: wizardValue('Audience', 'b2c'),
      })
      .nullish()
      .transform((v) => v ?? {}),
    recaptchaToken: z
      .string()
      .max(LEAD_LIMITS.recaptchaToken)
      .nullish()
      .openapi({ description: 'CAPTCHA token; not needed with a valid X-Chat-Api-Key' }),
    source_url: text(LEAD_LIMITS.sourceUrl, 'URL of the originating page', 'https://agency.example/wizard'),
    language: text(LEAD_LIMITS.language, '`en` or `es` (regional tags such as `es-CO` count as `es`)', 'es'),
    analyticsContext: AnalyticsContext,
  })
  .openapi('LeadSubmission');

export type LeadSubmissionInput = z.infer<typeof LeadSubmission>;

export const PipedriveOutcomeSchema = z
  .object({
    success: z.boolean(),
    leadId: z.number().int().nullable().openapi({ description: 'The Pipedrive deal id', example: 1234 }),
    message: z.string().openapi({ example: 'Synced to Pipedrive' }),
  })
  .openapi('PipedriveOutcome');

export const LeadCreated = z
  .object({
    success: z.literal(true),
    message: z.string(),
    leadId: z.string().openapi({ example: '6f1c2e58-0a0b-4e8a-9b1e-2f0a4c1d9e77' }),
    previewUrl: z.string().openapi({ example: 'http://localhost:8787/api/leads/6f1c…/preview' }),
    pipedrive: PipedriveOutcomeSchema,
  })
  .openapi('LeadCreated');

const KindUsage = z.object({ used: z.number().int(), limit: z.number().int(), remaining: z.number().int() });

export const RateLimitUsage = z
  .object({
    landing: KindUsage,
    application: KindUsage,
    inProgress: z.boolean().nullable(),
    inProgressType: z.enum(['landing', 'application']).nullable(),
    resetDate: z.string().openapi({ example: '2026-12-01' }),
  })
  .openapi('PrototypeRateLimit');

export const LookupResponse = z
  .object({
    exists: z.boolean(),
    name: z.string().optional(),
    company: z.string().optional(),
    service: z.string().optional(),
    rateLimit: RateLimitUsage.optional(),
  })
  .openapi('LeadLookup');

export const LookupQuery = z.object({
  email: z
    .string()
    .trim()
    .max(LEAD_LIMITS.lookupEmail)
    .email('must be a valid e-mail address')
    .openapi({ param: { name: 'email', in: 'query' }, example: 'ana@example.com' }),
});

export const LeadView = z
  .object({
    id: z.string(),
    status: z.enum(['new', 'spam', 'vendor', 'generating', 'completed', 'failed']),
    classification: z.enum(['lead', 'spam', 'vendor']),
    classifiedBy: z.enum(['llm', 'builtin']),
    name: z.string(),
    email: z.string().optional().openapi({
      description: 'Left out by `GET /api/leads/{id}` in production without the admin key',
    }),
    phone: z.string().nullable().optional().openapi({
      description: 'Left out by `GET /api/leads/{id}` in production without the admin key',
    }),
    company: z.string().nullable(),
    position: z.string().nullable(),
    steps: z.record(z.string(), z.unknown()),
    language: z.enum(['en', 'es']),
    sourceUrl: z.string().nullable(),
    prototypeKind: z.enum(['landing', 'application']).nullable(),
    pipedrive: PipedriveOutcomeSchema.nullable(),
    createdAt: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
    updatedAt: z.string(),
  })
  .openapi('Lead');

export const LeadListQuery = z.object({
  page: wholeNumberParam({ min: 1, max: LIMITS.pagination.maxPage, fallback: 1 }),
  limit: wholeNumberParam({ min: 1, max: LEAD_PAGE.maxLimit, fallback: LEAD_PAGE.defaultLimit }),
  all: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'all', in: 'query' }, description: '`true` returns every lead' }),
});

export const LeadList = z
  .object({
    success: z.literal(true),
    leads: z.array(LeadView),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('LeadList');

export const LeadIdParam = z.object({
  id: z
    .string()
    .max(64)
    // Lead ids are UUIDs, written lower-case; a UUID is the same id in either case.
    .transform((id) => id.toLowerCase())
    .openapi({ param: { name: 'id', in: 'path' }, example: '6f1c2e58-0a0b-4e8a-9b1e-2f0a4c1d9e77' }),
});
