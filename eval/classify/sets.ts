import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Submission } from '../../src/integrations/llm/offline/lead-classifier/features.ts';
import type { LeadClass } from '../../src/integrations/llm/offline/lead-classifier/model.ts';

/** One labelled submission of the lead/spam/vendor sets (format: /work/helpers/classify-format.md). */
export interface ClassifyItem {
  id: string;
  label: LeadClass;
  language: 'en' | 'es';
  region: string;
  channel: 'lead-form' | 'contact' | 'support';
  tags: string[];
  submission: Submission;
}

/** The tuning sets: the trainer learns from these, and cross-validation measures on them. */
export const TUNING_SETS = ['tune-a.json', 'tune-b.json'];

/** Scored once at the end by the lead engineer: never trained, tuned or looked at. */
export const HOLDOUT_SET = 'holdout-2.json';

/** Holdouts already scored (spent): never trained on, still scored for comparison. */
export const SPENT_HOLDOUT_SETS = ['holdout.json'];

/** What `npm run eval -- classify` scores when no file is named. */
export const DEFAULT_SETS = [...TUNING_SETS, ...SPENT_HOLDOUT_SETS, HOLDOUT_SET];

/** A path, or the name of a set in this folder. */
export function resolveSet(file: string): string {
  return existsSync(file) ? file : join(import.meta.dirname, file);
}

export function readClassifySet(file: string): ClassifyItem[] {
  return (JSON.parse(readFileSync(resolveSet(file), 'utf8')) as { items: ClassifyItem[] }).items;
}

/** How a set is named in a report: its path from the repository root. */
export function setName(file: string): string {
  const name = relative(join(import.meta.dirname, '../..'), resolveSet(file));
  return name.startsWith('..') ? file : name;
}
