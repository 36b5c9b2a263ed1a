import { extractFeatures, isOnlyTest, type Submission } from './lead-classifier/features.ts';
import { loadModel } from './lead-classifier/load-model.ts';
import type { LeadClass } from './lead-classifier/model.ts';
import { fold } from './text.ts';

/**
 * The built-in lead classifier, used when no language model is configured or the model fails: a
 * logistic regression over words, character n-grams and named cues of the submission, in English and
 * Spanish, trained on the labelled sets in eval/classify by `npm run train:classifier`
 * (lead-classifier/). Deterministic, in process, no network. A submission is spam or vendor only when
 * the model's probability reaches the threshold chosen by cross-validation; when in doubt, a lead.
 */
export type { LeadClass };

export type ClassifierInput = Submission;

export interface ClassifierResult {
  classification: LeadClass;
  /** The model's probability of the class returned, 0–1 (3 decimals). */
  score: number;
  /** What decided, strongest first, in words ("mentions backlinks or link building"). */
  reasons: string[];
  /** One sentence for people and storage, built from the above. */
  reason: string;
}

const model = loadModel();

/** The threshold the weights were trained with: spam or vendor only at or above this probability. */
export const CLASSIFIER_THRESHOLD = model.threshold;

export function classifyLeadOffline(input: ClassifierInput): ClassifierResult {
  const words = fold(input.texts.join(' '))
    .split(' ')
    .filter((w) => w && !/^\d+$/.test(w));
  // Two rules, each deciding with a score of 1. No text is no evidence: a lead (the wizard's choices
  // still say what the visitor wants). The policy names "test test" as spam, and a handful of
  // examples cannot teach a linear model that a message of test words alone is nothing else.
  if (words.length === 0) return result('lead', 1, ['no free text to judge']);
  if (isOnlyTest(words)) return result('spam', 1, ['is only a test']);
  const decision = model.classify(input);
  if (decision.classification !== 'lead' && tooLittleToJudge(input, words)) {
    // JUDGEMENT.md: spam or vendor only on clear evidence. A wizard's goal is often a few words from
    // a personal address ("Más reservas", gmail): the model learned that short spam looks like that,
    // but a few words with no sign of spam or of a pitch are no evidence of either.
    return result('lead', decision.probabilities.lead, [
      `in doubt: ${decision.classification} ${decision.score.toFixed(2)}, but a few words with no sign of spam or of a sales pitch are no evidence`,
    ]);
  }
  const reasons = [...decision.reasons];
  if (decision.classification === 'lead') {
    const other: LeadClass = decision.probabilities.spam >= decision.probabilities.vendor ? 'spam' : 'vendor';
    const p = decision.probabilities[other];
    if (p >= 0.5)
      reasons.unshift(`in doubt: ${other} ${p.toFixed(2)} is below the ${model.threshold} threshold`);
  }
  return result(decision.classification, decision.score, reasons);
}

/**
 * A short text (at most 15 words) of words that read as words, in which no named sign of spam or of
 * a sales pitch shows. A word of four letters or more with no vowel or a run of four consonants
 * (`zzzzzz`, `nlkjnlkj`) is a keyboard mash, itself evidence.
 */
function tooLittleToJudge(input: ClassifierInput, words: string[]): boolean {
  if (!words.every((w) => w.length < 4 || (/[aeiouy]/.test(w) && !/[^aeiouy\d]{4}/.test(w)))) return false;
  const { values } = extractFeatures(input, model.options);
  const short = values.has('s:tiny') || values.has('s:short');
  return short && values.has('s:no-spam-sign') && values.has('s:no-vendor-sign');
}

function result(classification: LeadClass, score: number, reasons: string[]): ClassifierResult {
  const rounded = Math.round(score * 1000) / 1000;
  const why = reasons.length ? `: ${reasons.join('; ')}` : '';
  return {
    classification,
    score: rounded,
    reasons,
    reason: `Built-in classifier: ${classification} (${rounded.toFixed(2)})${why}.`,
  };
}
