import {
  CHAR_PREFIX,
  extractFeatures,
  type FeatureOptions,
  type Features,
  type Submission,
} from './features.ts';
import { featureLabel } from './labels.ts';

export type LeadClass = 'lead' | 'spam' | 'vendor';

/** Class order of the weights. */
export const CLASSES: readonly LeadClass[] = ['lead', 'spam', 'vendor'];

/** The trained model as the trainer writes it (data/lead-classifier.json). */
export interface ModelData {
  about: string;
  classes: LeadClass[];
  options: FeatureOptions;
  /** Smallest probability of spam or vendor that marks a submission so; below it, a lead. */
  threshold: number;
  bias: number[];
  /** Feature key → one weight per class. */
  weights: Record<string, number[]>;
}

export interface Decision {
  classification: LeadClass;
  /** The model's probability of the class returned, 0–1. */
  score: number;
  /** Probability per class. */
  probabilities: Record<LeadClass, number>;
  /** The features that decided, strongest first, in words. */
  reasons: string[];
}

/**
 * The asymmetric rule: a submission is spam or vendor only when that class is the likelier of the two
 * and its probability reaches the threshold; anything less certain is a lead.
 */
export function applyThreshold(probabilities: Record<LeadClass, number>, threshold: number): LeadClass {
  const other: LeadClass = probabilities.spam >= probabilities.vendor ? 'spam' : 'vendor';
  return probabilities[other] >= threshold ? other : 'lead';
}

const MAX_REASONS = 4;
/** Smaller pushes are noise, not reasons. */
const MIN_PUSH = 0.05;

/** Words that weigh in the sum but name nothing as a reason. */
const FUNCTION_WORDS = new Set(
  (
    'a an and are as at be by for from have i in is it me my of on or our so that the this to us we with you your ' +
    'al con de del el en es la las le les lo los me mi nos o para por que se su sus te tu un una y'
  ).split(' '),
);

export class LinearModel {
  readonly threshold: number;
  readonly options: FeatureOptions;
  private readonly bias: number[];
  private readonly weights = new Map<string, number[]>();
  /** Character n-gram weights, keyed without their prefix. */
  private readonly charWeights = new Map<string, number[]>();

  constructor(data: ModelData) {
    if (data.classes.join() !== CLASSES.join()) throw new Error('lead classifier: unexpected class order');
    this.threshold = data.threshold;
    this.options = data.options;
    this.bias = data.bias;
    for (const [key, w] of Object.entries(data.weights)) {
      if (key.startsWith(CHAR_PREFIX)) this.charWeights.set(key.slice(CHAR_PREFIX.length), w);
      else this.weights.set(key, w);
    }
  }

  probabilities(features: Features): Record<LeadClass, number> {
    let lead = this.bias[0]!;
    let spam = this.bias[1]!;
    let vendor = this.bias[2]!;
    for (const [key, value] of features.values) {
      const w = this.weights.get(key);
      if (!w) continue;
      lead += w[0]! * value;
      spam += w[1]! * value;
      vendor += w[2]! * value;
    }
    const value = features.charValue;
    for (const gram of features.chars.keys()) {
      const w = this.charWeights.get(gram);
      if (!w) continue;
      lead += w[0]! * value;
      spam += w[1]! * value;
      vendor += w[2]! * value;
    }
    const max = Math.max(lead, spam, vendor);
    const [l, s, v] = [Math.exp(lead - max), Math.exp(spam - max), Math.exp(vendor - max)];
    const sum = l + s + v;
    return { lead: l / sum, spam: s / sum, vendor: v / sum };
  }

  classify(input: Submission, threshold = this.threshold): Decision {
    const features = extractFeatures(input, this.options);
    const probabilities = this.probabilities(features);
    const classification = applyThreshold(probabilities, threshold);
    return {
      classification,
      score: probabilities[classification],
      probabilities,
      reasons: this.reasons(features, classification, probabilities),
    };
  }

  /**
   * The features that pushed most towards the class returned, against the likeliest other class.
   * Word, word-pair and character n-gram weights add up per word of the text, so a reason names a
   * word (says “backlinks”), never a fragment.
   */
  private reasons(features: Features, chosen: LeadClass, probabilities: Record<LeadClass, number>): string[] {
    const c = CLASSES.indexOf(chosen);
    const rival = CLASSES.indexOf(
      CLASSES.filter((k) => k !== chosen).reduce((a, b) => (probabilities[a] >= probabilities[b] ? a : b)),
    );
    // Lexical pushes add up by word; other features stand alone.
    const byWord = new Map<string, number>();
    const byFeature = new Map<string, number>();
    const add = (map: Map<string, number>, key: string, push: number) =>
      map.set(key, (map.get(key) ?? 0) + push);
    for (const [key, value] of features.values) {
      const w = this.weights.get(key);
      if (!w) continue;
      const push = value * (w[c]! - w[rival]!);
      if (key.startsWith('w:') || key.startsWith('b:')) add(byWord, key.slice(2), push);
      else add(byFeature, key, push);
    }
    for (const [gram, word] of features.chars) {
      const w = this.charWeights.get(gram);
      if (w) add(byWord, word, features.charValue * (w[c]! - w[rival]!));
    }
    const candidates: [string, number][] = [];
    for (const [word, push] of byWord) {
      if (push > MIN_PUSH && !FUNCTION_WORDS.has(word)) candidates.push([featureLabel(`w:${word}`), push]);
    }
    for (const [key, push] of byFeature) {
      if (push > MIN_PUSH) candidates.push([featureLabel(key), push]);
    }
    return candidates
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_REASONS)
      .map(([label]) => label);
  }
}
