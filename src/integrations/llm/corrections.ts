import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/database.ts';
import { bigint, type RowOf, table, text } from '../../db/table-spec.ts';
import type { LeadClass } from './offline/classifier.ts';

/**
 * A person's corrections of the lead/spam/vendor decision, for every feature whose submissions are
 * classified (leads, support messages): when, from what to what, and what the correction started,
 * stopped or found already done. No personal data: the record is named by its id only.
 */

/** The `classification_corrections` table (migration 0011). */
export const classificationCorrectionsTable = table({
  id: text(),
  source: text<CorrectionSource>(),
  record_id: text(),
  from_classification: text<LeadClass>(),
  to_classification: text<LeadClass>(),
  from_status: text(),
  to_status: text(),
  /** JSON: CorrectionEffects. */
  effects: text(),
  created_at: bigint(),
});

declare module '../../db/schema.ts' {
  interface Database {
    classification_corrections: RowOf<typeof classificationCorrectionsTable>;
  }
}

/** Whose record: a lead of the wizard or a support contact-us message. */
export type CorrectionSource = 'lead' | 'support';

/** What a correction did, in words an operator reads (e.g. "confirmation e-mail"). */
export interface CorrectionEffects {
  /** Queued by this correction (the side effects the first decision skipped). */
  started: string[];
  /** Queued earlier, not run yet, and cancelled. */
  stopped: string[];
  /** Already done before the correction; they stay (an e-mail sent, a CRM deal created). */
  kept: string[];
}

export interface Correction {
  id: string;
  source: CorrectionSource;
  recordId: string;
  from: LeadClass;
  to: LeadClass;
  fromStatus: string;
  toStatus: string;
  effects: CorrectionEffects;
  createdAt: number;
}

type Row = RowOf<typeof classificationCorrectionsTable>;

function toCorrection(row: Row): Correction {
  return {
    id: row.id,
    source: row.source,
    recordId: row.record_id,
    from: row.from_classification,
    to: row.to_classification,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    effects: JSON.parse(row.effects) as CorrectionEffects,
    createdAt: Number(row.created_at),
  };
}

/** A new correction's id, known before it is stored (it names the jobs the correction queues). */
export const newCorrectionId = (): string => `corr_${randomUUID()}`;

export async function recordCorrection(db: DbOrTx, correction: Correction): Promise<void> {
  await db
    .insertInto('classification_corrections')
    .values({
      id: correction.id,
      source: correction.source,
      record_id: correction.recordId,
      from_classification: correction.from,
      to_classification: correction.to,
      from_status: correction.fromStatus,
      to_status: correction.toStatus,
      effects: JSON.stringify(correction.effects),
      created_at: correction.createdAt,
    })
    .execute();
}

/** The corrections of one record, or of several (a page of a list), oldest first. */
export async function correctionsOf(
  db: DbOrTx,
  source: CorrectionSource,
  recordIds: string[],
): Promise<Correction[]> {
  if (recordIds.length === 0) return [];
  const rows = await db
    .selectFrom('classification_corrections')
    .selectAll()
    .where('source', '=', source)
    .where('record_id', 'in', recordIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toCorrection);
}

/** Every correction of a source, oldest first (the export of corrected submissions). */
export async function allCorrections(db: DbOrTx, source: CorrectionSource): Promise<Correction[]> {
  const rows = await db
    .selectFrom('classification_corrections')
    .selectAll()
    .where('source', '=', source)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toCorrection);
}
