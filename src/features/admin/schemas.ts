import { z } from '@hono/zod-openapi';
import { wholeNumberParam } from '../../http/schemas.ts';
import { PipedriveOutcomeSchema } from '../leads/port.ts';
import { ClassifierReasons, ClassifierScore, CorrectionSchema } from './correction-schemas.ts';
import { ADMIN_LIMITS, ADMIN_PAGE, LEAD_SORTS } from './limits.ts';

export const LEAD_STATUSES = ['new', 'spam', 'vendor', 'generating', 'completed', 'failed'] as const;
export const LEAD_CLASSIFICATIONS = ['lead', 'spam', 'vendor'] as const;
export const OUTBOX_STATUSES = ['queued', 'sent', 'stored', 'retrying', 'failed', 'cancelled'] as const;

/** `a,b,c` → a list of enumeration values; an unknown value is a 400 naming it. */
export const csvOf = <T extends readonly [string, ...string[]]>(values: T, name: string, example: string) =>
  z
    .string()
    .max(200)
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const items = [
        ...new Set(
          raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      for (const item of items) {
        if (!(values as readonly string[]).includes(item)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown ${name} "${item}" (one of: ${values.join(', ')})`,
          });
          return z.NEVER;
        }
      }
      return items as T[number][];
    })
    .openapi({
      param: { in: 'query' },
      description: `Comma-separated ${name} values: ${values.join(', ')}`,
      example,
    });

const instant = (name: string, description: string) =>
  z
    .string()
    .max(40)
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const value = raw.trim();
      const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (dateOnly) {
        const ms = Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
        if (new Date(ms).toISOString().slice(0, 10) === value) return { ms, dateOnly: true };
      } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
        // Date.parse rolls an impossible day over (2026-02-30T10:00Z is 2 March): check the day first.
        const day = Date.parse(`${value.slice(0, 10)}T00:00:00Z`);
        const realDay =
          Number.isFinite(day) && new Date(day).toISOString().slice(0, 10) === value.slice(0, 10);
        const ms = Date.parse(value);
        if (realDay && Number.isFinite(ms)) return { ms, dateOnly: false };
      }
      ctx.addIssue({
        code: 'custom',
        message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with offset',
      });
      return z.NEVER;
    })
    .openapi({ param: { in: 'query' }, description, example: name === 'from' ? '2026-11-01' : '2026-11-30' });

export const pageParam = wholeNumberParam({ min: 1, max: ADMIN_PAGE.maxPage, fallback: 1 });

/** A positive whole number; anything above `max` is capped (a huge page size is not an error). */
export const limitParam = (max: number, fallback: number) =>
  wholeNumberParam({
    min: 1,
    max,
    fallback,
    cap: true,
    description: `Page size (default ${fallback}); larger values are capped to ${max}`,
  });

export const AdminLeadsQuery = z
  .object({
    status: csvOf(LEAD_STATUSES, 'status', 'new,completed'),
    classification: csvOf(LEAD_CLASSIFICATIONS, 'classification', 'lead'),
    from: instant('from', 'Created at or after (a date is the start of that UTC day)'),
    to: instant('to', 'Created at or before (a date includes that whole UTC day)'),
    q: z
      .string()
      .max(ADMIN_LIMITS.search, `must be at most ${ADMIN_LIMITS.search} characters`)
      .optional()
      .openapi({
        param: { in: 'query' },
        description: 'Free text: a case-insensitive part of the name, e-mail or company, or a lead id',
        example: 'acme',
      }),
    sort: z
      .enum(LEAD_SORTS, { error: `must be one of: ${LEAD_SORTS.join(', ')}` })
      .default('createdAt')
      .openapi({ param: { in: 'query' }, example: 'createdAt' }),
    order: z
      .enum(['asc', 'desc'], { error: 'must be asc or desc' })
      .default('desc')
      .openapi({ param: { in: 'query' }, example: 'desc' }),
    page: pageParam,
    limit: limitParam(ADMIN_PAGE.maxLimit, ADMIN_PAGE.defaultLimit),
  })
  .superRefine((q, ctx) => {
    // A date `to` includes its whole UTC day, so a date-time `from` later that day is still in range.
    const toEnd = q.to && (q.to.dateOnly ? q.to.ms + 86_400_000 - 1 : q.to.ms);
    if (q.from && toEnd !== undefined && q.from.ms > toEnd) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    }
  });

export const isoTime = z.string().openapi({ example: '2026-11-21T09:00:00.000Z' });

export const AdminLeadRowSchema = z
  .object({
    id: z.string(),
    status: z.enum(LEAD_STATUSES),
    classification: z.enum(LEAD_CLASSIFICATIONS),
    classifiedBy: z.enum(['llm', 'builtin']),
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    prototypeKind: z.enum(['landing', 'application']).nullable(),
    pipedrive: PipedriveOutcomeSchema.nullable(),
    previewUrl: z
      .string()
      .nullable()
      .openapi({ description: 'The prototype preview page, for prototype leads' }),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .openapi('AdminLeadRow');

export const AdminLeadPage = z
  .object({
    success: z.literal(true),
    leads: z.array(AdminLeadRowSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int().openapi({ description: 'The page size applied (after capping)' }),
    totalPages: z.number().int(),
    sort: z.enum(LEAD_SORTS),
    order: z.enum(['asc', 'desc']),
  })
  .openapi('AdminLeadPage');

export const OutboxMessageSchema = z
  .object({
    id: z.string(),
    idempotencyKey: z.string(),
    transport: z.enum(['smtp', 'outbox']),
    status: z.enum(OUTBOX_STATUSES),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    replyTo: z.string().nullable(),
    subject: z.string(),
    text: z.string().openapi({ description: 'The plain-text body (shortened in lists)' }),
    attachments: z.array(
      z.object({ filename: z.string(), contentType: z.string(), size: z.number().nullable() }),
    ),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: isoTime,
    sentAt: isoTime.nullable(),
  })
  .openapi('AdminOutboxMessage');

export const AdminLeadDetail = z
  .object({
    success: z.literal(true),
    lead: z.object({
      id: z.string(),
      status: z.enum(LEAD_STATUSES),
      classification: z.enum(LEAD_CLASSIFICATIONS),
      classificationReason: z.string(),
      classifiedBy: z
        .enum(['llm', 'builtin'])
        .openapi({ description: 'Who decided: the language model or the built-in classifier' }),
      classificationScore: ClassifierScore,
      classificationReasons: ClassifierReasons,
      name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      company: z.string().nullable(),
      position: z.string().nullable(),
      steps: z.record(z.string(), z.unknown()).openapi({ description: 'The wizard answers as submitted' }),
      language: z.enum(['en', 'es']),
      sourceUrl: z.string().nullable(),
      trusted: z.boolean().openapi({ description: 'Submitted through the trusted chat path' }),
      createdAt: isoTime,
      updatedAt: isoTime,
    }),
    crm: z.object({
      outcome: PipedriveOutcomeSchema.nullable(),
      personId: z.number().nullable(),
      orgId: z.number().nullable(),
      dealId: z.number().nullable(),
    }),
    prototype: z
      .object({
        kind: z.enum(['landing', 'application']),
        state: z
          .string()
          .openapi({ description: 'not-started, generating, completed or failed', example: 'completed' }),
        previewUrl: z.string(),
      })
      .nullable(),
    emails: z.array(OutboxMessageSchema),
    corrections: z
      .array(CorrectionSchema)
      .openapi({ description: "An admin's corrections of the classification, oldest first" }),
  })
  .openapi('AdminLeadDetail');

export const OutboxQuery = z.object({
  status: z
    .enum(OUTBOX_STATUSES, { error: `must be one of: ${OUTBOX_STATUSES.join(', ')}` })
    .optional()
    .openapi({ param: { in: 'query' }, example: 'stored' }),
  page: pageParam,
  limit: limitParam(ADMIN_LIMITS.outboxMaxLimit, ADMIN_PAGE.defaultLimit),
});

export const OutboxPage = z
  .object({
    success: z.literal(true),
    transport: z
      .enum(['smtp', 'outbox'])
      .openapi({ description: '`outbox`: no SMTP configured, mail is kept here' }),
    counts: z.record(z.enum(OUTBOX_STATUSES), z.number().int()),
    messages: z.array(OutboxMessageSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('AdminOutboxPage');

export const ContactQuery = z.object({
  page: pageParam,
  limit: limitParam(ADMIN_PAGE.maxLimit, ADMIN_PAGE.defaultLimit),
});

export const ContactPage = z
  .object({
    success: z.literal(true),
    submissions: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        email: z.string(),
        subject: z.string(),
        message: z.string(),
        status: z.enum(['new', 'spam', 'vendor']),
        createdAt: isoTime,
      }),
    ),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('AdminContactPage');

const DeadJob = z.object({
  id: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});

export const QueuesResponse = z
  .object({
    success: z.literal(true),
    queues: z.array(
      z.object({
        name: z.string(),
        counts: z.object({
          pending: z.number().int(),
          running: z.number().int(),
          completed: z.number().int(),
          dead: z.number().int(),
        }),
        ready: z.number().int().openapi({ description: 'Pending jobs already due' }),
        oldestPendingAt: isoTime.nullable(),
        health: z.enum(['ok', 'backlog', 'dead-jobs']),
        deadJobs: z.array(DeadJob),
      }),
    ),
  })
  .openapi('AdminQueues');

export const QueueJobParams = z.object({
  name: z
    .string()
    .max(100)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'confirmation-email' }),
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'b3c1…' }),
});

export const QueueParams = z.object({
  name: z
    .string()
    .max(100)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'confirmation-email' }),
});

export const RetryResponse = z
  .object({ success: z.literal(true), retried: z.number().int() })
  .openapi('AdminRetry');

export const LeadIdPath = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: '6f1c2e58-0a0b-4e8a-9b1e-2f0a4c1d9e77' }),
});

export const SummaryResponse = z
  .object({
    success: z.literal(true),
    leads: z.object({
      total: z.number().int(),
      byStatus: z.record(z.string(), z.number().int()),
      byClassification: z.record(z.string(), z.number().int()),
    }),
    mail: z.object({
      transport: z.enum(['smtp', 'outbox']),
      counts: z.record(z.enum(OUTBOX_STATUSES), z.number().int()),
    }),
    features: z.object({ analytics: z.boolean(), prototypes: z.boolean() }),
  })
  .openapi('AdminSummary');
