import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../../http/body.ts';
import { ApiError, mapErrors } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { correctionsOf } from '../../../integrations/llm/corrections.ts';
import { LeadNotFound, leadCorrections, reclassifyLead } from '../../leads/port.ts';
import { queuePrototypeAfterCorrection } from '../../prototypes/port.ts';
import {
  listSupportMessages,
  reclassifySupportMessage,
  type SupportMessage,
  SupportMessageNotFound,
} from '../../support/port.ts';
import {
  ClassificationBody,
  LeadCorrectionResponse,
  SupportCorrectionResponse,
  SupportMessageIdPath,
  SupportMessagePage,
  SupportMessagesQuery,
} from '../classification-schemas.ts';
import { correctionView } from '../correction-schemas.ts';
import { LeadIdPath } from '../schemas.ts';
import { apiErrors, json, security, tags } from './common.ts';

const body = {
  required: true,
  content: { 'application/json': { schema: ClassificationBody } },
} as const;

const EXACTLY_ONCE =
  'Idempotent: a repeat, a retry or a concurrent twin of the same correction finds the record already ' +
  'corrected and changes nothing (`changed: false`); the corrections of one record run one after the ' +
  'other (a lock on its row), and each side effect is queued in the same transaction under its own ' +
  'idempotency key, so it runs at most once, through the durable queue. What already ran stays (an ' +
  'e-mail sent, a CRM deal created: `kept`). The change is recorded (when, from what to what, `started`, ' +
  '`stopped`, `kept`) and listed in `corrections`.';

const leadRoute = createRoute({
  method: 'post',
  path: '/admin/api/leads/{id}/classification',
  tags,
  security,
  summary: "Correct a lead's classification (lead, spam or vendor) and its side effects",
  description:
    'The status follows the States table for the new class (SPAM_FILTER_ENABLED and ' +
    'VENDOR_FILTER_ENABLED apply as at submission). A spam or vendor lead made a lead becomes `new` and ' +
    'gets what it skipped: the confirmation e-mail to the visitor, the notification to SUPPORT_EMAIL, ' +
    'the CRM sync, and its prototype when it asked for one and the monthly quota allows (the lead then ' +
    'moves on to `generating` and `completed`; a prototype delivered before completes it at once). A lead ' +
    'made spam or vendor loses what has not run yet: queued e-mails and the CRM sync are cancelled and ' +
    'prototype generation stops (a generation already running finishes; its slot is given back ' +
    'otherwise). A vendor gets the polite decline e-mail, once; a vendor made anything else has a ' +
    `decline that has not gone yet cancelled. ${EXACTLY_ONCE}`,
  middleware: [requireJson] as const,
  request: { params: LeadIdPath, body },
  responses: {
    ...json(LeadCorrectionResponse, 'The lead after the correction'),
    ...apiErrors({
      400: 'VALIDATION_ERROR: `classification` is not lead, spam or vendor, or the body is not valid JSON',
      404: 'NOT_FOUND: no lead has this id',
      415: 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json',
    }),
  },
});

const supportRoute = createRoute({
  method: 'post',
  path: '/admin/api/support/messages/{id}/classification',
  tags,
  security,
  summary: "Correct a support contact-us message's classification and its side effects",
  description:
    'As for leads: a spam or vendor message made a lead becomes `new` and gets the contact e-mail to ' +
    'SUPPORT_EMAIL (CRM_BCC_EMAIL as blind copy) and the CRM sync; a message made spam or vendor has ' +
    'what has not run yet cancelled; a vendor gets the decline e-mail in its language, once. ' +
    EXACTLY_ONCE,
  middleware: [requireJson] as const,
  request: { params: SupportMessageIdPath, body },
  responses: {
    ...json(SupportCorrectionResponse, 'The message after the correction'),
    ...apiErrors({
      400: 'VALIDATION_ERROR: `classification` is not lead, spam or vendor, or the body is not valid JSON',
      404: 'NOT_FOUND: no support message has this id',
      415: 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json',
    }),
  },
});

const supportListRoute = createRoute({
  method: 'get',
  path: '/admin/api/support/messages',
  tags,
  security,
  summary: 'Support contact-us messages (POST /api/support/send), newest first, with their classification',
  description:
    "Each message with its classification, the classifier's score and reasons, its CRM outcome and " +
    'its corrections. `status` takes comma-separated values (new, spam, vendor).',
  request: { query: SupportMessagesQuery },
  responses: {
    ...json(SupportMessagePage, 'A page of messages'),
    ...apiErrors({ 400: 'VALIDATION_ERROR' }),
  },
});

function notFound(error: unknown): unknown {
  if (error instanceof LeadNotFound || error instanceof SupportMessageNotFound) {
    return new ApiError('NOT_FOUND', error.message);
  }
  return error;
}

/** Correcting a lead's or a support message's classification, and the support messages view. */
export function classificationViews() {
  return createRouter()
    .openapi(leadRoute, async (c) => {
      // Lead ids are UUIDs, written lower-case; a UUID is the same id in either case.
      const id = c.req.valid('param').id.toLowerCase();
      const { classification } = c.req.valid('json');
      const deps = c.env.deps;
      const outcome = await mapErrors(
        reclassifyLead({ ...deps, logger: c.env.logger }, queuePrototypeAfterCorrection, id, classification),
        notFound,
      );
      const corrections = await leadCorrections(deps.db, id);
      return c.json(
        {
          success: true as const,
          changed: outcome.changed,
          id,
          status: outcome.lead.status,
          classification: outcome.lead.classification,
          correction: outcome.correction ? correctionView(outcome.correction) : null,
          corrections: corrections.map(correctionView),
        },
        200,
      );
    })
    .openapi(supportRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { classification } = c.req.valid('json');
      const deps = c.env.deps;
      const outcome = await mapErrors(
        reclassifySupportMessage({ ...deps, logger: c.env.logger }, id, classification),
        notFound,
      );
      const corrections = await correctionsOf(deps.db, 'support', [id]);
      return c.json(
        {
          success: true as const,
          changed: outcome.changed,
          id,
          status: outcome.message.status,
          classification: outcome.message.classification,
          correction: outcome.correction ? correctionView(outcome.correction) : null,
          corrections: corrections.map(correctionView),
        },
        200,
      );
    })
    .openapi(supportListRoute, async (c) => {
      const { page, limit, status } = c.req.valid('query');
      const db = c.env.deps.db;
      const { messages, total } = await listSupportMessages(db, {
        offset: (page - 1) * limit,
        limit,
        statuses: status,
      });
      const corrections = await correctionsOf(
        db,
        'support',
        messages.map((m) => m.id),
      );
      return c.json(
        {
          success: true as const,
          messages: messages.map((m) =>
            messageView(
              m,
              corrections.filter((x) => x.recordId === m.id),
            ),
          ),
          total,
          page,
          limit,
          totalPages: Math.ceil(total / limit),
        },
        200,
      );
    });
}

function messageView(m: SupportMessage, corrections: Parameters<typeof correctionView>[0][]) {
  return {
    id: m.id,
    status: m.status,
    classification: m.classification,
    classificationReason: m.classificationReason,
    classifiedBy: m.classifiedBy,
    classificationScore: m.classificationScore,
    classificationReasons: m.classificationReasons,
    name: m.name,
    email: m.email,
    company: m.company,
    subject: m.subject,
    message: m.message,
    language: m.language,
    pipedrive: m.pipedrive,
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
    corrections: corrections.map(correctionView),
  };
}
