import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sliceWhole } from '../../../text/slice-whole.ts';
import { type Dimension, TEXT } from './engine-text.ts';
import { type Facts, pathText } from './facts.ts';
import { wordFeatures } from './features.ts';
import {
  type EngineModel,
  pathProbabilities,
  predictFields,
  predictPath,
  type Reading,
  readForFields,
  readForPath,
  readMessage,
} from './model.ts';
import { loadEngineModel, type StoredEngineModel } from './model-store.ts';
import { contentWords, isSingleVerb, mentionsMoney, mentionsTime } from './phrases.ts';
import { predictSections, type SectionPrediction } from './sections.ts';
import type { Span } from './tagger.ts';
import { fold, fragments, trimLeadIn } from './text.ts';
import type { Confidence, Language, PlanPath, RefineFields, SectionKey } from './vocabulary.ts';
import { PATHS, SECTION_KEYS } from './vocabulary.ts';

/**
 * The built-in offline engine: deterministic, bilingual, trained on the labelled sets (model.ts,
 * train.ts) and built only from the visitor's own words. It answers in the same JSON shape the model
 * is asked for (contract.md), so its output goes through the same server-side rules as a model's.
 */
export interface OfflineRecommendation {
  summary: string;
  recommendedPath: PlanPath;
  rationale: { summary: string; signals: string[] };
  alternatives: { path: PlanPath; whenItWouldFit: string }[];
  detectedNeeds: string[];
  missingInformation: string[];
  confidence: Confidence;
}

export interface OfflineRefinement {
  summary: string;
  sections: { key: SectionKey; items: string[] }[];
  suggestions: string[];
  fields: RefineFields;
}

/** Facts the visitor confirmed in the wizard. */
export type ConfirmedFacts = Facts;

let defaultModel: EngineModel | null = null;

/** The committed model (engine-model.json), read on first use. */
export function engineModel(): EngineModel {
  defaultModel ??= loadEngineModel(
    JSON.parse(
      readFileSync(join(import.meta.dirname, 'data', 'engine-model.json'), 'utf8'),
    ) as StoredEngineModel,
  );
  return defaultModel;
}

/** A path probability at or above this is a confident answer. */
const HIGH_CONFIDENCE = 0.75;
/** An alternative path needs at least this probability. */
const ALTERNATIVE_MIN = 0.12;
const MAX_SIGNALS = 4;
const MAX_NEEDS = 6;
const MAX_NEED_WORDS = 8;
/** Up to this many words, a message with no goal is asked for one. */
const GOAL_QUESTION_WORDS = 15;

export function offlineRecommend(
  message: string,
  language: Language,
  facts: ConfirmedFacts = {},
  model: EngineModel = engineModel(),
): OfflineRecommendation {
  const reading = readMessage(message, model.space);
  const withFacts = pathText(message, facts);
  const prediction = predictPath(
    model,
    withFacts === message ? reading : readForPath(withFacts, model.space),
    facts,
    reading.wordCount,
  );
  const path = prediction.path;
  const found = predictSections(model, reading);
  const sections = found.spans;
  const t = TEXT[language];
  const p = prediction.probabilities;
  const confidence: Confidence =
    path === 'Technical Review' ? 'low' : p[path] >= HIGH_CONFIDENCE ? 'high' : 'medium';
  const alternatives = PATHS.filter((x) => x !== path && p[x] >= ALTERNATIVE_MIN)
    .sort((x, y) => p[y] - p[x])
    .slice(0, 2)
    .map((x) => ({ path: x, whenItWouldFit: t.whenItFits[x] }));
  if (path !== 'Technical Review' && confidence !== 'high' && alternatives.length < 2) {
    if (!alternatives.some((a) => a.path === 'Technical Review'))
      alternatives.push({ path: 'Technical Review', whenItWouldFit: t.whenItFits['Technical Review'] });
  }
  const needs = detectedNeeds(message, sections);
  return {
    summary: requestSummary(reading, sections, path, language),
    recommendedPath: path,
    rationale: {
      summary: `${t.why[path]}${needs.length ? ` ${t.youMentioned(needs.slice(0, 2))}` : ''}`,
      signals: signals(model, reading, path, sections),
    },
    alternatives,
    detectedNeeds: needs,
    missingInformation: missing(model, reading, found, facts).map((key) => t.dimension[key]),
    confidence,
  };
}

export function offlineRefine(
  message: string,
  language: Language,
  model: EngineModel = engineModel(),
): OfflineRefinement {
  const reading = readMessage(message, model.space);
  const found = predictSections(model, reading);
  const spans = found.spans;
  const fields = predictFields(model, readForFields(reading));
  const sections = SECTION_KEYS.map((key) => ({ key, items: unique(spans[key].map((s) => s.text)) })).filter(
    (s) => s.items.length > 0,
  );
  return {
    summary: summarySentence(reading, spans),
    sections,
    suggestions: missing(model, reading, found, fields).map((key) => TEXT[language].suggestion[key]),
    fields,
  };
}

/**
 * Refine's summary, "one short sentence" of the visitor's own: the first sentence holding a phrase
 * of some section, else the first of three words or more ("Hi!" is not a summary), else the whole
 * message. Whitespace is collapsed.
 */
function summarySentence(reading: Reading, spans: Record<SectionKey, Span[]>): string {
  const message = reading.message;
  const sentences: { start: number; end: number }[] = [];
  let start = 0;
  for (const boundary of message.matchAll(/[.!?]+(?=\s|$)|\n+/g)) {
    const end = boundary.index + boundary[0].length;
    if (message.slice(start, end).trim() !== '') sentences.push({ start, end });
    start = end;
  }
  if (message.slice(start).trim() !== '') sentences.push({ start, end: message.length });
  const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
  if (sentences.length <= 1) return collapse(message);
  const found = Object.values(spans).flat();
  const chosen =
    sentences.find((s) => found.some((h) => h.start >= s.start && h.start < s.end)) ??
    sentences.find((s) => collapse(message.slice(s.start, s.end)).split(' ').length >= 3);
  return collapse(chosen ? message.slice(chosen.start, chosen.end) : message);
}

/** What is known besides the message: the wizard's confirmed facts, or the fields read from it. */
interface KnownFacts {
  goal?: string | null;
  audience?: string | null;
  industry?: string | null;
  features?: readonly string[];
}

/**
 * What the visitor has not said, among goal, audience, features, timeline, budget and industry: a
 * dimension is asked about only when no word of the message leans towards its section (the
 * thresholds are far below the ones that make an item), nothing known gives it (a wizard answer is
 * a confirmed fact, ai-api.md) and, for timeline and budget, when the message names no time or money
 * at all.
 */
function missing(
  model: EngineModel,
  reading: Reading,
  found: SectionPrediction,
  known: KnownFacts = {},
): Dimension[] {
  const absent = (key: keyof EngineModel['decisions']['absentBelow']) =>
    found.spans[key].length === 0 && found.strongest[key] < model.decisions.absentBelow[key];
  const out: Dimension[] = [];
  // A description of some length states its purpose in ways no cue list covers: only a short one is
  // asked for its goal.
  if (absent('goal') && reading.wordCount <= GOAL_QUESTION_WORDS && !known.goal) out.push('goal');
  if (absent('audience') && !known.audience) out.push('audience');
  if (absent('features') && !known.features?.length) out.push('features');
  if (!mentionsTime(reading.message)) out.push('timeline');
  if (!mentionsMoney(reading.message)) out.push('budget');
  if (absent('industry') && !known.industry) out.push('industry');
  return out.slice(0, 5);
}

/**
 * The kinds of work and the features the visitor named, as short phrases of their own words: not a
 * single verb, and never a piece of a word ("s slow" out of "it's slow").
 */
function detectedNeeds(message: string, sections: Record<SectionKey, Span[]>): string[] {
  const spans = [...sections.service, ...sections.features].sort((a, b) => a.start - b.start);
  return unique(
    spans
      .filter((s) => !WORD_GOES_ON.test(message.slice(Math.max(0, s.start - 1), s.start)))
      .map((s) => s.text)
      .filter((text) => !isSingleVerb(text) && text.split(/\s+/).length <= MAX_NEED_WORDS),
  ).slice(0, MAX_NEEDS);
}

/** A letter, digit or apostrophe right before a span: it starts inside a word. */
const WORD_GOES_ON = /^[\p{L}\p{N}'\u2019]$/u;

/**
 * The clauses that weigh most for the chosen path, in the visitor's words: each clause is scored by
 * the path model on its words and word pairs (its score for the path minus its mean score for the
 * others), the best (at most four, positive first) kept in message order.
 */
function signals(
  model: EngineModel,
  reading: Reading,
  path: PlanPath,
  sections: Record<SectionKey, Span[]>,
): string[] {
  const parts = fragments(reading.message);
  const scored = parts.map((part, position) => {
    const probs = pathProbabilities(model, { scaled: [wordFeatures(fold(part.text))], plain: [] });
    let others = 0;
    for (const other of PATHS) if (other !== path) others += Math.log(probs[other]);
    const score = Math.log(probs[path]) - others / (PATHS.length - 1);
    return { text: trimLeadIn(part.text), score, position };
  });
  const chosen = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, MAX_SIGNALS);
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.position - b.position)) {
    if (chosen.length >= 2) break;
    if (!chosen.includes(s)) chosen.push(s);
  }
  let out = unique(chosen.sort((a, b) => a.position - b.position).map((s) => s.text));
  // One long clause is two quotes of the visitor, not a quote and a statement about the message.
  if (out.length === 1) out = splitClause(out[0]!);
  // One short quote: the phrase of it that made a section (its service, a feature, the sector…) is
  // the second piece of evidence, else its two halves. Never a statement about the message: that is
  // not a signal (ai-api.md). A message of one word is left with one; the post-processing adds the
  // message itself as the second.
  if (out.length === 1) out = twoQuotes(out[0]!, sections);
  return out;
}

/**
 * A lone quote and a section's phrase that says less than it (not the same content words); else its
 * two halves; else the quote alone.
 */
function twoQuotes(quote: string, sections: Record<SectionKey, Span[]>): string[] {
  const said = contentWords(quote).join(' ');
  for (const key of SECTION_KEYS) {
    for (const span of sections[key]) {
      const words = contentWords(span.text).join(' ');
      if (words !== '' && words !== said) return [quote, span.text];
    }
  }
  const words = [...quote.matchAll(/\S+/gu)];
  if (words.length < 2) return [quote];
  const cut = words[Math.ceil(words.length / 2)]!.index;
  return [quote.slice(0, cut).trim(), quote.slice(cut).trim()];
}

/** Words a clause can be cut before, keeping both halves readable quotes. */
const CLAUSE_JOINTS = new Set(
  'that which who for with and using including aimed targeting so que para con y usando incluyendo dirigido dirigida dirigidos enfocado enfocada sin'.split(
    ' ',
  ),
);
const MIN_CLAUSE_WORDS = 3;

/**
 * A clause cut in two at the joint word nearest its middle, each half at least MIN_CLAUSE_WORDS
 * words, both verbatim from the message; the clause alone when it has no such joint.
 */
function splitClause(text: string): string[] {
  const words = [...text.matchAll(/\S+/gu)];
  let best: number | null = null;
  for (let i = MIN_CLAUSE_WORDS; i <= words.length - MIN_CLAUSE_WORDS; i++) {
    if (!CLAUSE_JOINTS.has(fold(words[i]![0]).trim())) continue;
    if (best === null || Math.abs(i - words.length / 2) < Math.abs(best - words.length / 2)) best = i;
  }
  if (best === null) return [text];
  const cut = words[best]!.index;
  return [text.slice(0, cut).trim(), text.slice(cut).trim()];
}

/** A sector phrase short enough to name in the summary ("dental clinic", "panadería"). */
const SUMMARY_SECTOR_WORDS = 4;

/** recommend-plan's summary: what the path means, for the sector the visitor named in their words. */
function requestSummary(
  reading: Reading,
  sections: Record<SectionKey, Span[]>,
  path: PlanPath,
  language: Language,
): string {
  const t = TEXT[language];
  const sector =
    sections.industry.find((s) => s.text.split(/\s+/).length <= SUMMARY_SECTOR_WORDS)?.text ?? '';
  if (path !== 'Technical Review') return t.summary(t.pathNeed[path], sector);
  const first = fragments(reading.message)[0];
  const quote = first ? trimLeadIn(first.text) : reading.message.trim();
  return t.summaryQuote(quote.length > 120 ? `${sliceWhole(quote, 119)}…` : quote);
}

function unique(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = fold(value).replace(/\s+/g, ' ').trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}
