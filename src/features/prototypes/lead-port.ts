import type {
  PrototypeBrief,
  PrototypeKind,
  PrototypeLanguage,
} from '../../integrations/prototype-generator/types.ts';

/**
 * What prototype generation needs from the leads feature: the lead's answers and status, the
 * status transitions, and the monthly quota. Implemented on the leads store in leads-adapter.ts.
 */
export interface PrototypeLead {
  id: string;
  status: string;
  classification: string | null;
  /** `steps.prototype` when it is `landing` or `application`; otherwise the lead is not eligible. */
  kind: PrototypeKind | null;
  language: PrototypeLanguage;
  answers: Omit<PrototypeBrief, 'leadId' | 'kind' | 'language'>;
}

export type QuotaDecision =
  | { allowed: true }
  | { allowed: false; resetDate: string; retryAfterSeconds: number; limit: number };

export interface PrototypeLeads {
  get(leadId: string): Promise<PrototypeLead | null>;
  setStatus(leadId: string, status: 'generating' | 'completed' | 'failed'): Promise<void>;
  /** Re-checks the monthly quota for this lead (idempotent for a lead already counted). */
  reserve(lead: PrototypeLead): Promise<QuotaDecision>;
  markInProgress(leadId: string): Promise<void>;
  complete(leadId: string): Promise<void>;
  /**
   * Generation failed for good: the lead's slot is given back, except in the months of `delivered`
   * (start times of its completed generations): a failed regeneration does not refund a prototype
   * the visitor already has.
   */
  release(leadId: string, delivered: number[]): Promise<void>;
}

/**
 * Leads stored as spam or vendor get no prototype. The status, not the raw classification, decides:
 * with SPAM_FILTER_ENABLED=false a lead classified spam is stored as `new` and treated as a lead.
 */
export function isRefused(lead: PrototypeLead): boolean {
  return lead.status === 'spam' || lead.status === 'vendor';
}
