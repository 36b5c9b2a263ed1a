import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One labelled message of the AI evaluation sets. */
export interface EvalCase {
  id: string;
  locale: string;
  tags: string[];
  message: string;
  path: string;
  fields: Record<string, string | null>;
}

/** The labelled sets in this folder, scored by `npm run eval` and checked by the engine's tests. */
export const AI_EVAL_SETS = [
  'ai-cases.json',
  'ai-holdout.json',
  'ai-holdout-2.json',
  'ai-holdout-3.json',
  'ai-holdout-4.json',
  'ai-holdout-5.json',
  'ai-holdout-6.json',
];

/** The cases of one set: a path, or the name of a set in this folder. */
export function readEvalSet(file: string): EvalCase[] {
  const path = existsSync(file) ? file : join(import.meta.dirname, file);
  return (JSON.parse(readFileSync(path, 'utf8')) as { cases: EvalCase[] }).cases;
}
