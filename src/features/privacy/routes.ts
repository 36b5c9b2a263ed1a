import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { errorResponses } from '../../http/error-responses.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import { addressHash } from './audit-hash.ts';
import { erasePersonalData } from './erase.ts';
import { exportPersonalData } from './export.ts';
import { retentionRules } from './retention.ts';
import {
  AuditPage,
  AuditQuery,
  ErasureQuery,
  ErasureResponse,
  PersonalDataDocument,
  PersonQuery,
  PrivacySettings,
} from './schemas.ts';
import { crmErasureCounts, listAudit } from './store.ts';

const adminKey = requireHeaderSecret('X-Admin-Api-Key', (config) => config.secrets.admin);
/** What is answered here is personal data: never cached anywhere. */
const noStore: MiddlewareHandler<AppEnv> = async function noStore(c, next) {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};
const tags = ['Privacy'];
const security = [{ AdminApiKey: [] }];
const errors = (extra: Record<number, string> = {}) =>
  errorResponses({
    400: 'VALIDATION_ERROR: a malformed address',
    401: 'UNAUTHORIZED: missing or wrong X-Admin-Api-Key',
    ...extra,
  });

const exportRoute = createRoute({
  method: 'get',
  path: '/admin/api/personal-data',
  tags,
  security,
  summary: 'Everything held about one address, as one JSON document (right of access)',
  description:
    'Leads with their answers, classification, prototypes and CRM ids, the quota counters of the ' +
    "address's bucket, contact and support messages, tickets with their files' names and sizes (each " +
    'with a `download` path), the chat sessions linked to those leads or naming the address, the ' +
    'e-mails to, from or about it, and queued jobs carrying it. The address matches case-insensitively ' +
    'and as a whole address (`ana@example.co` is not found inside `juana@example.com`).',
  middleware: [adminKey, noStore] as const,
  request: { query: PersonQuery },
  responses: {
    200: { description: 'The document', content: { 'application/json': { schema: PersonalDataDocument } } },
    ...errors({ 404: 'NOT_FOUND: nothing is held about this address' }),
  },
});

const eraseRoute = createRoute({
  method: 'delete',
  path: '/admin/api/personal-data',
  tags,
  security,
  summary: 'Erase everything held about one address (right to erasure)',
  description:
    'What the export lists is deleted in ONE transaction (rows, ticket files, outbox copies, linked ' +
    "chat history, queued jobs — cancelled —, the quota's e-mail bucket) with an audit entry holding " +
    'an HMAC of the address, never the address. A failure leaves everything in place. With `crm=true` ' +
    'and PIPEDRIVE_API_TOKEN set, the Pipedrive persons with the address, their deals and notes are ' +
    'deleted after the commit; a CRM failure is reported in `crm` and retried from the queue ' +
    '(`crm-erasure`), the local erasure stands. Nothing held is not an error: the counts are zero.',
  middleware: [adminKey, noStore] as const,
  request: { query: ErasureQuery },
  responses: {
    200: { description: 'Erased', content: { 'application/json': { schema: ErasureResponse } } },
    ...errors(),
  },
});

const settingsRoute = createRoute({
  method: 'get',
  path: '/admin/api/privacy',
  tags,
  security,
  summary: 'Retention periods per kind, who may list personal data, pending CRM erasures',
  middleware: [adminKey, noStore] as const,
  responses: {
    200: { description: 'The settings', content: { 'application/json': { schema: PrivacySettings } } },
    ...errorResponses({ 401: 'UNAUTHORIZED: missing or wrong X-Admin-Api-Key' }),
  },
});

const auditRoute = createRoute({
  method: 'get',
  path: '/admin/api/privacy/audit',
  tags,
  security,
  summary: 'The audit log of erasures and retention batches, newest first',
  description:
    'Each entry: when, why (`request` or `retention` with its kind), the counts, the CRM outcome and, ' +
    'for a request, the keyed hash of the address. `email` narrows it to one address (by its hash).',
  middleware: [adminKey, noStore] as const,
  request: { query: AuditQuery },
  responses: {
    200: { description: 'A page of the log', content: { 'application/json': { schema: AuditPage } } },
    ...errors(),
  },
});

/** The privacy routes: export, erasure, settings and audit (the Privacy view of the dashboard). */
export function privacyRoutes() {
  return createRouter()
    .openapi(exportRoute, async (c) => {
      const { deps } = c.env;
      const found = await exportPersonalData(deps.db, deps.personalData.parts, c.req.valid('query').email);
      if (!found) throw new ApiError('NOT_FOUND', 'Nothing is held about this address.');
      return c.json({ success: true as const, ...found }, 200);
    })
    .openapi(eraseRoute, async (c) => {
      const { deps } = c.env;
      const query = c.req.valid('query');
      const result = await erasePersonalData({ ...deps, logger: c.env.logger }, query.email, {
        crm: query.crm === 'true',
      });
      return c.json(
        {
          success: true as const,
          auditId: result.auditId,
          erasedAt: new Date(result.erasedAt).toISOString(),
          counts: result.counts,
          total: Object.values(result.counts).reduce((a, b) => a + b, 0),
          crm: result.crm,
        },
        200,
      );
    })
    .openapi(settingsRoute, async (c) => {
      const { deps } = c.env;
      const pending = await crmErasureCounts(deps.db);
      return c.json(
        {
          success: true as const,
          personalDataLists: deps.config.privacy.personalDataLists,
          auditKey: deps.config.privacy.auditSecret
            ? ('PRIVACY_AUDIT_SECRET' as const)
            : ('ADMIN_API_SECRET' as const),
          crm: {
            configured: deps.crm.enabled,
            pendingErasures: pending.pending,
            failedErasures: pending.failed,
          },
          retention: retentionRules(deps.personalData.parts).map((rule) => ({
            kind: rule.kind,
            variable: rule.variable,
            days: rule.days,
          })),
        },
        200,
      );
    })
    .openapi(auditRoute, async (c) => {
      const { deps } = c.env;
      const { page, limit, email } = c.req.valid('query');
      const emailHash = email ? (addressHash(deps.config, email) ?? undefined) : undefined;
      const { entries, total } = await listAudit(deps.db, { page, limit, emailHash });
      return c.json(
        {
          success: true as const,
          entries: entries.map((e) => ({ ...e, createdAt: new Date(e.createdAt).toISOString() })),
          total,
          page,
          limit,
          totalPages: Math.ceil(total / limit),
        },
        200,
      );
    });
}
