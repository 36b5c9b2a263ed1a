import {
  CRM_QUEUE,
  type CrmDeps,
  type CrmRecordSource,
  syncRecordInline,
} from '../../integrations/crm/sync.ts';
import { crmDealTitle, crmNoteHtml } from './emails.ts';
import { getCrmIds, getLead, type PipedriveOutcome, saveCrmIds, setPipedriveOutcome } from './store.ts';

/** The shared CRM sync (integrations/crm/sync.ts) with leads as its records. */
export { CRM_QUEUE };
export const LEAD_CRM_SOURCE = 'lead';

export const leadCrmSource: CrmRecordSource = {
  async load(db, leadId) {
    const [lead, known] = await Promise.all([getLead(db, leadId), getCrmIds(db, leadId)]);
    if (!lead || !known) return null;
    return {
      known,
      input: {
        reference: lead.id,
        name: lead.name,
        email: lead.email,
        phone: lead.phone,
        company: lead.company,
        title: crmDealTitle(lead),
        noteHtml: crmNoteHtml(lead),
      },
    };
  },
  saveIds: (db, leadId, ids) => saveCrmIds(db, leadId, ids),
  saveOutcome: (db, leadId, outcome) => setPipedriveOutcome(db, leadId, outcome),
};

/** The in-request attempt; on failure the retry is queued (key `<leadId>:crm`). Never throws. */
export function syncLeadInline(deps: CrmDeps, leadId: string): Promise<PipedriveOutcome> {
  return syncRecordInline(deps, LEAD_CRM_SOURCE, leadCrmSource, leadId);
}
