import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The labelled sets of the AI routes. Two formats are read:
 * - the older sets (`eval/ai-*.json`, `{cases: [...]}`): one message with its path and its five
 *   wizard fields, which counts as a recommend item (acceptable: its path) and a refine item (no
 *   sections);
 * - the newer sets (`eval/ai/*.json`, `{recommend: [...], refine: [...]}`, /work/helpers/ai-format.md):
 *   recommend items with acceptable paths and optional wizard fields, refine items with fields and
 *   gold sections (phrases copied from the message).
 */
export type FieldValues = Record<string, string | null>;

export interface RecommendCase {
  id: string;
  locale: string;
  tags: string[];
  message: string;
  path: string;
  acceptable: string[];
  /** Wizard answers sent as confirmed facts. */
  fields?: Record<string, string | string[]>;
}

export interface RefineCase {
  id: string;
  locale: string;
  tags: string[];
  message: string;
  fields: FieldValues;
  /** Gold sections (only in the newer sets). */
  sections?: Record<string, string[]>;
}

export interface AiSet {
  name: string;
  recommend: RecommendCase[];
  refine: RefineCase[];
}

/** One labelled message of the older sets. */
export interface EvalCase {
  id: string;
  locale: string;
  tags: string[];
  message: string;
  path: string;
  fields: FieldValues;
}

/** The frozen holdout: scored once, by the lead engineer; never read by training or tests. */
export const AI_HOLDOUT = 'ai/holdout-11.json';

/**
 * Holdouts already scored (spent): still never trained on, so `npm run eval` keeps scoring them for
 * comparison, but a change may have been made after looking at them.
 */
export const AI_SPENT_HOLDOUTS = ['ai/holdout-9.json', 'ai/holdout-10.json'];

/** Every set but the frozen holdout: what the engine is trained, cross-validated and tested on. */
export const AI_TUNING_SETS = [
  'ai-cases.json',
  'ai-holdout.json',
  'ai-holdout-2.json',
  'ai-holdout-3.json',
  'ai-holdout-4.json',
  'ai-holdout-5.json',
  'ai-holdout-6.json',
  'ai/tune.json',
  'ai/holdout-7.json',
  'ai/holdout-8.json',
];

/** What `npm run eval` scores when no file is named. */
export const AI_EVAL_SETS = [...AI_TUNING_SETS, ...AI_SPENT_HOLDOUTS, AI_HOLDOUT];

function resolve(file: string): string {
  return existsSync(file) ? file : join(import.meta.dirname, file);
}

/** A set in either format: a path, or a name relative to this folder. */
export function readAiSet(file: string): AiSet {
  const data = JSON.parse(readFileSync(resolve(file), 'utf8')) as {
    cases?: EvalCase[];
    recommend?: RecommendCase[];
    refine?: RefineCase[];
  };
  if (data.cases) {
    return {
      name: file,
      recommend: data.cases.map((c) => ({
        id: c.id,
        locale: c.locale,
        tags: c.tags,
        message: c.message,
        path: c.path,
        acceptable: [c.path],
      })),
      refine: data.cases.map((c) => ({
        id: c.id,
        locale: c.locale,
        tags: c.tags,
        message: c.message,
        fields: c.fields,
      })),
    };
  }
  return { name: file, recommend: data.recommend ?? [], refine: data.refine ?? [] };
}

/** Every message of a set, once (an older set's message is both a recommend and a refine item). */
export function messagesOf(set: AiSet): { id: string; message: string; locale: string }[] {
  const seen = new Set<string>();
  const out: { id: string; message: string; locale: string }[] = [];
  for (const c of [...set.recommend, ...set.refine]) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push({ id: c.id, message: c.message, locale: c.locale });
  }
  return out;
}
