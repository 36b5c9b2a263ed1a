/**
 * `npm run eval -- classify --export-corrections FILE`: the submissions an admin corrected (leads and
 * support contact-us messages of the database DATABASE_URL names), written as labelled items in the
 * format of this folder's sets, so real traffic can grow the tuning set. The label is the class the
 * last correction chose; the tags say what the classifier had said. What the classifier reads is
 * written (sender, company, title, the free text); the phone, which it never reads, is left out.
 * These are real people's messages: review the file before it joins a tuning set, and keep it (and
 * any set made from it) out of public places.
 */
import { writeFileSync } from 'node:fs';
import type { Db } from '../../src/db/database.ts';
import { getLead, leadClassifierInput } from '../../src/features/leads/port.ts';
import { getSupportMessage, supportClassifierInput } from '../../src/features/support/port.ts';
import {
  allCorrections,
  type Correction,
  type CorrectionSource,
} from '../../src/integrations/llm/corrections.ts';
import type { ClassifierInput } from '../../src/integrations/llm/offline/classifier.ts';
import type { ClassifyItem } from './sets.ts';

type Loaded = { input: ClassifierInput & { language: 'en' | 'es' }; channel: ClassifyItem['channel'] };

const LOADERS: Record<CorrectionSource, (db: Db, id: string) => Promise<Loaded | null>> = {
  async lead(db, id) {
    const lead = await getLead(db, id);
    return lead ? { input: leadClassifierInput(lead), channel: 'lead-form' } : null;
  },
  async support(db, id) {
    const message = await getSupportMessage(db, id);
    return message ? { input: supportClassifierInput(message), channel: 'support' } : null;
  },
};

/** The corrected submissions as labelled items, in the order of their last correction. */
export async function correctedItems(db: Db): Promise<ClassifyItem[]> {
  const records: { source: CorrectionSource; first: Correction; last: Correction }[] = [];
  for (const source of Object.keys(LOADERS) as CorrectionSource[]) {
    const byRecord = new Map<string, Correction[]>();
    for (const c of await allCorrections(db, source)) {
      byRecord.set(c.recordId, [...(byRecord.get(c.recordId) ?? []), c]);
    }
    for (const list of byRecord.values()) records.push({ source, first: list[0]!, last: list.at(-1)! });
  }
  records.sort((a, b) => a.last.createdAt - b.last.createdAt || a.last.id.localeCompare(b.last.id));

  const items: ClassifyItem[] = [];
  const counters = { en: 0, es: 0 };
  for (const { source, first, last } of records) {
    // A record deleted since (an erasure request) is simply not exported.
    const loaded = await LOADERS[source](db, last.recordId);
    if (!loaded) continue;
    const { language, ...submission } = loaded.input;
    counters[language]++;
    const said = first.from;
    items.push({
      id: `corr-${language}-${String(counters[language]).padStart(3, '0')}`,
      label: last.to,
      language,
      region: language === 'es' ? 'neutral' : 'intl',
      channel: loaded.channel,
      tags: ['real-traffic', 'corrected', `classifier-said-${said}`, ...(said !== last.to ? ['hard'] : [])],
      submission: {
        ...submission,
        company: submission.company ?? null,
        position: submission.position ?? null,
        phone: null,
      },
    });
  }
  return items;
}

export async function exportCorrections(
  db: Db,
  file: string,
  print: (line: string) => void,
): Promise<number> {
  const items = await correctedItems(db);
  const about =
    `Submissions corrected by an admin, exported ${new Date().toISOString()} by ` +
    '`npm run eval -- classify --export-corrections`: real traffic, labelled with the class the last ' +
    'correction chose (tags: what the classifier said). Review before adding to a tuning set; never to the holdout.';
  writeFileSync(file, `${JSON.stringify({ about, items }, null, 2)}\n`);
  const count = (label: string) => items.filter((i) => i.label === label).length;
  print(
    `${items.length} corrected submission(s) written to ${file}: ${count('lead')} lead, ${count('spam')} spam, ${count('vendor')} vendor`,
  );
  return items.length;
}
