import { createRoute } from '@hono/zod-openapi';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { listOutbox } from '../../../integrations/mail/index.ts';
import { getLead, leadCorrections } from '../../leads/port.ts';
import { correctionView } from '../correction-schemas.ts';
import { ADMIN_LIMITS } from '../limits.ts';
import { type AdminLeadRow, leadExtras, queryLeads } from '../query.ts';
import { AdminLeadDetail, AdminLeadPage, AdminLeadsQuery, LeadIdPath } from '../schemas.ts';
import { apiErrors, json, messageView, previewPath, security, tags } from './common.ts';

const leadsRoute = createRoute({
  method: 'get',
  path: '/admin/api/leads',
  operationId: 'listAdminLeads',
  tags,
  security,
  summary: 'Leads with filters, free-text search, sorting and pagination',
  description:
    '`status` and `classification` take comma-separated values; `from`/`to` a date (UTC day) or an ISO ' +
    'date-time; `q` searches name, e-mail and company (case-insensitive) or matches a lead id. `limit` ' +
    'above the maximum is capped (the response reports the size applied); anything malformed is a 400.',
  request: { query: AdminLeadsQuery },
  responses: { ...json(AdminLeadPage, 'A page of leads'), ...apiErrors({ 400: 'VALIDATION_ERROR' }) },
});

const leadRoute = createRoute({
  method: 'get',
  path: '/admin/api/leads/{id}',
  operationId: 'getAdminLead',
  tags,
  security,
  summary: "One lead's full record: wizard answers, classification, CRM outcome, prototype, e-mails",
  request: { params: LeadIdPath },
  responses: {
    ...json(AdminLeadDetail, 'The lead'),
    ...apiErrors({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND' }),
  },
});

function rowView(row: AdminLeadRow) {
  return {
    ...row,
    previewUrl: row.prototypeKind ? previewPath(row.id) : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The leads view (filtered, sorted pages) and the lead detail view. */
export function leadViews() {
  return createRouter()
    .openapi(leadsRoute, async (c) => {
      const q = c.req.valid('query');
      const to = q.to ? (q.to.dateOnly ? q.to.ms + 86_400_000 : q.to.ms + 1) : undefined;
      const { leads, total } = await queryLeads(c.env.deps.db, {
        statuses: q.status,
        classifications: q.classification,
        from: q.from?.ms,
        to,
        q: q.q,
        sort: q.sort,
        order: q.order,
        page: q.page,
        limit: q.limit,
      });
      return c.json(
        {
          success: true as const,
          leads: leads.map(rowView),
          total,
          page: q.page,
          limit: q.limit,
          totalPages: Math.ceil(total / q.limit),
          sort: q.sort,
          order: q.order,
        },
        200,
      );
    })
    .openapi(leadRoute, async (c) => {
      const { id } = c.req.valid('param');
      const db = c.env.deps.db;
      const [lead, extras, corrections] = await Promise.all([
        getLead(db, id),
        leadExtras(db, id),
        leadCorrections(db, id),
      ]);
      if (!lead || !extras) throw new ApiError('NOT_FOUND', 'No lead has this id.');
      const mail = await listOutbox(db, { keyPrefix: `${id}:`, limit: ADMIN_LIMITS.leadEmails });
      const state =
        lead.status === 'generating' || lead.status === 'completed' || lead.status === 'failed'
          ? lead.status
          : 'not-started';
      return c.json(
        {
          success: true as const,
          lead: {
            id: lead.id,
            status: lead.status,
            classification: lead.classification,
            classificationReason: lead.classificationReason,
            classifiedBy: lead.classifiedBy,
            classificationScore: lead.classificationScore,
            classificationReasons: lead.classificationReasons,
            name: lead.name,
            email: lead.email,
            phone: lead.phone,
            company: lead.company,
            position: lead.position,
            steps: { ...lead.steps },
            language: lead.language,
            sourceUrl: lead.sourceUrl,
            trusted: extras.trusted,
            createdAt: new Date(lead.createdAt).toISOString(),
            updatedAt: new Date(lead.updatedAt).toISOString(),
          },
          crm: { outcome: lead.pipedrive, ...extras.crm },
          prototype: lead.prototypeKind
            ? { kind: lead.prototypeKind, state, previewUrl: previewPath(lead.id) }
            : null,
          emails: mail.messages.map((m) => messageView(m, true)),
          corrections: corrections.map(correctionView),
        },
        200,
      );
    });
}
