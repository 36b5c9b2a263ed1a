/**
 * The CRM interface: create (or reuse) the person, the organization and a deal for a lead, and attach
 * a note with the wizard answers. The real client speaks Pipedrive's REST API (v2; v1 for notes);
 * without a token the offline default skips the sync and says so.
 */
export interface CrmLeadInput {
  /** Our lead id: written into the deal title so a retry can find a deal created by a lost attempt. */
  reference: string;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  title: string;
  /** HTML; every piece of user text in it is already escaped. */
  noteHtml: string;
}

export interface CrmIds {
  personId: number | null;
  orgId: number | null;
  dealId: number | null;
  noteId: number | null;
}

export interface CrmSyncOptions {
  /** Ids a previous attempt already created: those steps are skipped. */
  known: CrmIds;
  signal: AbortSignal;
  /**
   * Look for a deal, and then a note on it, carrying `reference` before creating them (set on retries:
   * an earlier attempt may have created them and lost the answer).
   */
  searchExistingDeal: boolean;
  /** Called as soon as each object exists, so a later failure does not lose its id. */
  onProgress(ids: Partial<CrmIds>): Promise<void>;
}

/** A person to delete from the CRM (an erasure request): found by address, and by the ids we kept. */
export interface CrmErasureInput {
  email: string;
  /** Objects this service created and kept the ids of (the address may have changed in the CRM since). */
  known: { personIds: number[]; dealIds: number[]; noteIds: number[] };
}

/** How many objects were deleted (those already gone are not counted). */
export interface CrmErasureResult {
  persons: number;
  deals: number;
  notes: number;
}

export interface CrmClient {
  readonly enabled: boolean;
  /** Returns the ids of the synced objects; throws CrmError on failure. */
  syncLead(input: CrmLeadInput, options: CrmSyncOptions): Promise<CrmIds>;
  /**
   * Deletes the persons with this address (and the known ones), their deals and the notes on either;
   * idempotent (what is already gone is skipped), so a retry finishes what a failed attempt began.
   */
  erasePerson(input: CrmErasureInput, options: { signal: AbortSignal }): Promise<CrmErasureResult>;
}

export class CrmError extends Error {
  override name = 'CrmError';
  /** True when retrying cannot help (bad token, rejected payload). */
  readonly permanent: boolean;
  /** The HTTP status the CRM answered, when it answered. */
  readonly status: number | null;
  constructor(message: string, permanent = false, status: number | null = null) {
    super(message);
    this.permanent = permanent;
    this.status = status;
  }
}

/** The offline default when PIPEDRIVE_API_TOKEN is unset. */
export class SkippedCrm implements CrmClient {
  readonly enabled = false;
  async syncLead(): Promise<CrmIds> {
    throw new CrmError('CRM sync skipped: PIPEDRIVE_API_TOKEN is not set', true);
  }
  async erasePerson(): Promise<CrmErasureResult> {
    throw new CrmError('CRM erasure skipped: PIPEDRIVE_API_TOKEN is not set', true);
  }
}
