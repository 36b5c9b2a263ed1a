import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { type Db, withTransaction } from '../../db/database.ts';
import type { CaptchaVerifier } from '../../integrations/captcha/captcha.ts';
import type { CrmClient } from '../../integrations/crm/crm.ts';
import { queueCrmSafetyNet } from '../../integrations/crm/sync.ts';
import { classifySubmission } from '../../integrations/llm/classification.ts';
import type { LlmClient } from '../../integrations/llm/llm-client.ts';
import type { ClassifierInput } from '../../integrations/llm/offline/classifier.ts';
import { enqueueEmail } from '../../integrations/mail/queue.ts';
import type { MailTransport } from '../../integrations/mail/transport.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { normalizeLanguage } from '../../text/language.ts';
import { LEAD_CRM_SOURCE, syncLeadInline } from './crm-sync.ts';
import { confirmationEmail, notificationEmail, vendorDeclineEmail } from './emails.ts';
import { LeadRefusal } from './errors.ts';
import { DUPLICATE_WINDOW_MS, WIZARD_VALUES, type WizardEnumField } from './limits.ts';
import type { PrototypeQuota, QuotaUsage } from './quota.ts';
import type { LeadSubmissionInput } from './schemas.ts';
import {
  expireSubmissionKey,
  getLead,
  getLeadBySubmissionKey,
  insertLead,
  type Lead,
  type LeadStatus,
  type LeadSteps,
  normalizeEmail,
  type PipedriveOutcome,
  type PrototypeKind,
  setPipedriveOutcome,
} from './store.ts';

/** What lead submission needs: the infrastructure and the leads module's quota. */
export interface LeadDeps {
  config: Config;
  db: Db;
  jobs: JobQueue;
  worker: QueueWorker;
  captcha: CaptchaVerifier;
  crm: CrmClient;
  mail: MailTransport;
  quota: PrototypeQuota;
  logger: Logger;
  llm?: LlmClient | null;
  metrics?: OutboundErrorSink;
}

/** Where failed outside calls are counted (`deps.metrics`). */
export interface OutboundErrorSink {
  recordOutboundError(service: string): void;
}

export interface SubmitRequest {
  body: LeadSubmissionInput;
  /** A valid X-Chat-Api-Key was sent: CAPTCHA and the wizard-value check are skipped. */
  trusted: boolean;
  clientIp: string | null;
  /** The sales agent's chat session the lead comes from (trusted requests only), so erasure finds it. */
  chatSessionId?: string | null;
}

export interface LeadCreatedResponse {
  success: true;
  message: string;
  leadId: string;
  previewUrl: string;
  pipedrive: PipedriveOutcome;
}

export interface SubmitResult {
  lead: Lead;
  response: LeadCreatedResponse;
  /** True when this was a repeat of a submission stored moments ago (no new lead, no side effect). */
  duplicate: boolean;
}

export function previewUrlOf(config: Config, leadId: string): string {
  return `${config.publicBaseUrl}/api/leads/${encodeURIComponent(leadId)}/preview`;
}

export function prototypeKindOf(steps: LeadSteps): PrototypeKind | null {
  return steps.prototype === 'landing' || steps.prototype === 'application' ? steps.prototype : null;
}

const THANKS = {
  en: 'Thank you! We received your request and will be in touch soon.',
  es: '¡Gracias! Recibimos tu solicitud y te contactaremos pronto.',
};

/** The same answer for every class: a spammer learns nothing from the response. */
const CRM_SKIPPED: PipedriveOutcome = { success: false, leadId: null, message: 'CRM sync skipped' };
const CRM_PENDING: PipedriveOutcome = { success: false, leadId: null, message: 'CRM sync in progress' };

function respond(config: Config, lead: Lead): LeadCreatedResponse {
  return {
    success: true,
    message: THANKS[lead.language],
    leadId: lead.id,
    previewUrl: previewUrlOf(config, lead.id),
    pipedrive: lead.pipedrive ?? CRM_PENDING,
  };
}

/** What the classifier reads of a lead: the sender, the goal and the features (free text). */
export function leadClassifierInput(
  lead: Pick<Lead, 'name' | 'email' | 'company' | 'position' | 'phone' | 'steps' | 'language'>,
): ClassifierInput & { language: 'en' | 'es' } {
  return {
    name: lead.name,
    email: lead.email,
    company: lead.company,
    position: lead.position,
    phone: lead.phone,
    texts: [lead.steps.goal ?? '', ...(lead.steps.features ?? [])],
    language: lead.language,
  };
}

/** Unknown wizard values are refused on the public path. */
export function checkWizardValues(steps: LeadSteps): void {
  for (const field of Object.keys(WIZARD_VALUES) as WizardEnumField[]) {
    const value = steps[field];
    if (value === undefined) continue;
    if (!(WIZARD_VALUES[field] as readonly string[]).includes(value)) {
      throw new LeadRefusal('invalid', `steps.${field}: must be one of ${WIZARD_VALUES[field].join(', ')}`);
    }
  }
}

function toSteps(body: LeadSubmissionInput): LeadSteps {
  const steps: LeadSteps = {};
  for (const [key, value] of Object.entries(body.steps) as [keyof LeadSteps, unknown][]) {
    if (value === undefined) continue;
    (steps as Record<string, unknown>)[key] = value;
  }
  return steps;
}

/**
 * The fingerprint of a submission: the same person sending the same answers. A double-click (or a
 * network retry) within DUPLICATE_WINDOW_MS maps to the lead already stored.
 */
function submissionKey(fields: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/** JSON with object keys sorted at every level, so key order never changes the fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

async function recentDuplicate(db: Db, key: string, now: number): Promise<Lead | null> {
  const lead = await getLeadBySubmissionKey(db, key);
  return lead && lead.createdAt >= now - DUPLICATE_WINDOW_MS ? lead : null;
}

function quotaRefusal(kind: PrototypeKind, usage: QuotaUsage, now: number): LeadRefusal {
  const next = Date.parse(`${usage.resetDate}T00:00:00Z`);
  return new LeadRefusal(
    'quota',
    `The monthly limit of ${usage[kind].limit} ${kind} prototypes is used up; it resets on ${usage.resetDate}.`,
    { usage, retryAfterSeconds: Math.max(1, Math.ceil((next - now) / 1000)) },
  );
}

/**
 * POST /api/leads after the per-IP rate limit: duplicate check, monthly prototype quota, wizard values
 * and CAPTCHA (unless trusted), classification, the lead committed, then its side effects per the
 * States table. Throws LeadRefusal for a refusal; nothing is stored in that case.
 */
export async function submitLead(deps: LeadDeps, request: SubmitRequest): Promise<SubmitResult> {
  const { body, trusted } = request;
  const now = Date.now();
  const email = normalizeEmail(body.personal.email_address);
  const steps = toSteps(body);
  const language = normalizeLanguage(body.language);
  const fields = {
    email,
    name: body.personal.name,
    phone: body.personal.phone_number ?? null,
    company: body.personal.company ?? null,
    position: body.personal.position ?? null,
    steps,
    language,
    sourceUrl: body.source_url ?? null,
  };
  const key = submissionKey(fields);

  const earlier = await recentDuplicate(deps.db, key, now);
  if (earlier) return { lead: earlier, response: respond(deps.config, earlier), duplicate: true };

  const prototypeKind = prototypeKindOf(steps);
  if (prototypeKind) {
    const usage = await deps.quota.usage({ ip: request.clientIp, email });
    if (usage[prototypeKind].remaining <= 0) throw quotaRefusal(prototypeKind, usage, now);
  }

  if (!trusted) {
    checkWizardValues(steps);
    const captcha = await deps.captcha.verify(body.recaptchaToken ?? undefined, request.clientIp);
    if (!captcha.ok) {
      deps.logger.info({ reason: captcha.reason, detail: captcha.detail }, 'lead refused: CAPTCHA');
      if (captcha.reason === 'unavailable') {
        deps.metrics?.recordOutboundError('captcha');
        throw new LeadRefusal(
          'captcha_unavailable',
          'The CAPTCHA could not be verified right now; please try again.',
        );
      }
      throw new LeadRefusal('captcha_failed', 'The CAPTCHA check failed; please try again.');
    }
  }

  const classification = await classifySubmission(
    deps.llm ?? null,
    leadClassifierInput({ ...fields, steps }),
    deps.logger,
  );
  const status: LeadStatus =
    classification.classification === 'spam' && deps.config.filters.spam
      ? 'spam'
      : classification.classification === 'vendor' && deps.config.filters.vendor
        ? 'vendor'
        : 'new';

  const id = randomUUID();
  await expireSubmissionKey(deps.db, key, now - DUPLICATE_WINDOW_MS);
  const clientIpHash = await deps.quota.hashIp(request.clientIp);
  // The lead and its queued side effects (e-mails, the CRM job) commit together: a process that dies
  // after the commit, even before answering, leaves every side effect in the durable queue.
  const inserted = await withTransaction(deps.db, async (tx) => {
    const stored = await insertLead(tx, {
      id,
      status,
      classification: classification.classification,
      classificationReason: classification.reason,
      classifiedBy: classification.classifiedBy,
      classificationScore: classification.score,
      classificationReasons: classification.reasons,
      name: fields.name,
      email,
      phone: fields.phone,
      company: fields.company,
      position: fields.position,
      steps,
      language,
      sourceUrl: fields.sourceUrl,
      prototypeKind,
      clientIpHash,
      trusted,
      submissionKey: key,
      chatSessionId: trusted ? (request.chatSessionId ?? null) : null,
      createdAt: now,
    });
    if (stored) await queueSideEffects({ ...deps, db: tx, jobs: new JobQueue(tx) }, id, status);
    return stored;
  });
  if (!inserted) {
    // An identical submission was stored while this one was being checked.
    const twin = await getLeadBySubmissionKey(deps.db, key);
    if (twin) return { lead: twin, response: respond(deps.config, twin), duplicate: true };
    throw new LeadRefusal('in_progress', 'An identical submission is being processed; please retry.');
  }
  deps.worker.poke();

  // The lead is committed: from here on, failures are retried in the background, never lost.
  const outcome = status === 'new' ? await syncLeadInline(deps, id) : CRM_SKIPPED;
  const lead = (await getLead(deps.db, id))!;
  return { lead, response: { ...respond(deps.config, lead), pipedrive: outcome }, duplicate: false };
}

/**
 * The durable side effects of a new lead, in the transaction that stores it: e-mails per the States
 * table, and for a genuine lead the CRM job (a safety net behind the in-request attempt).
 */
async function queueSideEffects(deps: LeadDeps, leadId: string, status: LeadStatus): Promise<void> {
  const lead = await getLead(deps.db, leadId);
  if (!lead) return;
  if (status === 'spam') return storeOutcome(deps, leadId, CRM_SKIPPED);
  if (status === 'vendor') {
    await enqueueEmail(deps, vendorDeclineEmail(lead), `${leadId}:vendor-decline`);
    return storeOutcome(deps, leadId, CRM_SKIPPED);
  }
  const previewUrl = lead.prototypeKind ? previewUrlOf(deps.config, lead.id) : null;
  await enqueueEmail(deps, confirmationEmail(lead, previewUrl), `${leadId}:confirmation`);
  await enqueueEmail(
    deps,
    notificationEmail(lead, deps.config.mail.supportEmail, previewUrl),
    `${leadId}:notification`,
  );
  if (deps.crm.enabled) await queueCrmSafetyNet(deps.jobs, LEAD_CRM_SOURCE, leadId);
}

async function storeOutcome(deps: LeadDeps, leadId: string, outcome: PipedriveOutcome) {
  await setPipedriveOutcome(deps.db, leadId, outcome);
}
