import { z } from '@hono/zod-openapi';
import { wholeNumberParam } from '../../http/schemas.ts';
import { PRIVACY_LIMITS } from './limits.ts';

const email = z
  .string()
  .trim()
  .max(PRIVACY_LIMITS.email, `must be at most ${PRIVACY_LIMITS.email} characters`)
  .email('must be a valid e-mail address')
  .openapi({
    param: { name: 'email', in: 'query' },
    description: 'The address, compared trimmed and case-insensitively',
    example: 'ana@example.com',
  });

export const PersonQuery = z.object({ email });

export const ErasureQuery = z.object({
  email,
  crm: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'crm', in: 'query' },
      description: '`true`: also delete the person, their deals and notes from Pipedrive',
    }),
});

const Counts = z.record(z.string(), z.number().int()).openapi({ example: { leads: 1, emails: 3 } });

export const PersonalDataDocument = z
  .object({
    success: z.literal(true),
    email: z.string(),
    exportedAt: z.string(),
    counts: Counts.openapi({ description: 'Items per section: the preview of what an erasure deletes' }),
    data: z.record(z.string(), z.array(z.unknown())).openapi({
      description:
        'One section per kind (docs/privacy.md): `leads` (answers, classification, CRM ids), ' +
        '`prototypeQuota`, `prototypes`, `chatSessions`, `contactMessages`, `supportMessages`, ' +
        '`tickets` (files with name, type, size and a `download` path), `emails`, `queuedJobs`',
    }),
  })
  .openapi('PersonalDataExport');

const CrmOutcome = z.object({
  status: z.enum(['not_requested', 'not_configured', 'erased', 'queued']),
  message: z.string(),
  deleted: z
    .object({ persons: z.number().int(), deals: z.number().int(), notes: z.number().int() })
    .optional(),
});

export const ErasureResponse = z
  .object({
    success: z.literal(true),
    auditId: z.string(),
    erasedAt: z.string(),
    counts: Counts.openapi({ description: 'Rows, files, e-mails and jobs deleted, per kind' }),
    total: z.number().int(),
    crm: CrmOutcome,
  })
  .openapi('PersonalDataErasure');

export const PrivacySettings = z
  .object({
    success: z.literal(true),
    personalDataLists: z.enum(['public', 'admin']).openapi({
      description: '`admin`: GET /api/leads and /api/contact need the admin key (production default)',
    }),
    auditKey: z.enum(['PRIVACY_AUDIT_SECRET', 'ADMIN_API_SECRET']).openapi({
      description: 'Which secret keys the audit log’s address hash',
    }),
    crm: z.object({
      configured: z.boolean(),
      pendingErasures: z.number().int(),
      failedErasures: z.number().int(),
    }),
    retention: z.array(
      z.object({
        kind: z.string(),
        variable: z.string(),
        days: z.number().int().openapi({ description: '0: kept until erased' }),
      }),
    ),
  })
  .openapi('PrivacySettings');

export const AuditQuery = z.object({
  page: wholeNumberParam({ min: 1, max: 100_000, fallback: 1 }),
  limit: wholeNumberParam({
    min: 1,
    max: PRIVACY_LIMITS.audit.maxLimit,
    fallback: PRIVACY_LIMITS.audit.defaultLimit,
    cap: true,
  }),
  email: email.optional().openapi({
    param: { name: 'email', in: 'query' },
    description: "Only this address's erasures (matched by its keyed hash)",
  }),
});

export const AuditPage = z
  .object({
    success: z.literal(true),
    entries: z.array(
      z.object({
        id: z.string(),
        reason: z.enum(['request', 'retention']),
        kind: z.string().nullable(),
        emailHash: z.string().nullable(),
        counts: Counts,
        crm: z.object({ status: z.string(), detail: z.unknown() }).nullable(),
        createdAt: z.string(),
      }),
    ),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('PrivacyAuditPage');
