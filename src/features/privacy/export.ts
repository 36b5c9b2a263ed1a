import type { DbOrTx } from '../../db/database.ts';
import { findPersonalData, type PersonalDataPart, PersonalDataScope } from '../../db/personal-data.ts';

export interface PersonalDataExport {
  email: string;
  exportedAt: string;
  /** How many items each section holds (the erasure's preview). */
  counts: Record<string, number>;
  /** Each part's sections: leads, prototypes, chatSessions, contactMessages, tickets, emails… */
  data: Record<string, unknown[]>;
}

/**
 * GET /admin/api/personal-data: everything held about the address, as one document (GDPR art. 15);
 * null when nothing is held.
 */
export async function exportPersonalData(
  db: DbOrTx,
  parts: readonly PersonalDataPart[],
  email: string,
): Promise<PersonalDataExport | null> {
  const scope = await findPersonalData(db, parts, new PersonalDataScope(email));
  if (scope.size === 0) return null;
  const data: Record<string, unknown[]> = {};
  for (const part of parts) {
    for (const [section, items] of Object.entries(await part.export(db, scope))) {
      data[section] = [...(data[section] ?? []), ...items];
    }
  }
  const counts = Object.fromEntries(Object.entries(data).map(([section, items]) => [section, items.length]));
  return { email: scope.email as string, exportedAt: new Date().toISOString(), counts, data };
}
