import type { Db } from '../../db/database.ts';
import { getLead, monthKey, type PrototypeQuota, setLeadStatus } from '../leads/port.ts';
import type { PrototypeLead, PrototypeLeads } from './lead-port.ts';

/** The leads feature as prototype generation sees it, through its port (store and quota) only. */
export function leadsForPrototypes(db: Db, quota: PrototypeQuota): PrototypeLeads {
  return {
    async get(leadId) {
      const lead = await getLead(db, leadId);
      if (!lead) return null;
      const steps = lead.steps;
      const view: PrototypeLead = {
        id: lead.id,
        status: lead.status,
        classification: lead.classification,
        kind: lead.prototypeKind,
        language: lead.language,
        answers: {
          name: lead.name,
          company: lead.company,
          service: steps.service ?? null,
          goal: steps.goal ?? null,
          industry: steps.industry ?? null,
          features: Array.isArray(steps.features) ? steps.features.filter((f) => typeof f === 'string') : [],
          style: steps.style ?? null,
          audience: steps.audience ?? null,
        },
      };
      return view;
    },
    setStatus: (leadId, status) => setLeadStatus(db, leadId, status),
    async reserve(lead) {
      // The buckets are the visitor's stored identifiers (e-mail and the salted IP hash).
      const stored = await getLead(db, lead.id);
      if (!stored) throw new Error(`lead ${lead.id} disappeared`);
      const result = await quota.reserve(
        lead.kind ?? 'landing',
        { ip: stored.clientIpHash, email: stored.email },
        lead.id,
      );
      return result.allowed
        ? { allowed: true }
        : {
            allowed: false,
            resetDate: result.resetDate,
            retryAfterSeconds: result.retryAfterSeconds,
            limit: quota.limit,
          };
    },
    markInProgress: (leadId) => quota.markInProgress(leadId),
    complete: (leadId) => quota.complete(leadId),
    release: (leadId, delivered) => quota.release(leadId, new Set(delivered.map(monthKey))),
  };
}
