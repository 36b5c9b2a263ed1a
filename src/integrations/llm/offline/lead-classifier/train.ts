import {
  CHAR_PREFIX,
  extractFeatures,
  type FeatureOptions,
  type Features,
  type Submission,
} from './features.ts';
import { fitLogistic, type SparseRow } from './logistic.ts';
import { applyThreshold, CLASSES, type LeadClass, LinearModel, type ModelData } from './model.ts';

/**
 * The trainer of the lead classifier: features of the labelled submissions, a vocabulary of what
 * occurs often enough, a logistic regression, the threshold chosen on out-of-fold probabilities, and
 * the model written as data. Deterministic: fixed order, fixed fold assignment, rounded weights.
 */
export interface Example {
  id: string;
  label: LeadClass;
  input: Submission;
  /** Who wrote it (the set it came from): the honest test of generalisation is across writers. */
  writer: string;
  /** The case it is (`hard`, `disguised-vendor`…), for the report's slices. */
  tags?: string[];
}

export interface TrainingSettings {
  features: FeatureOptions;
  /** A word or n-gram enters the vocabulary when this many training submissions have it. */
  minCount: number;
  l2: number;
  iterations: number;
  /** Folds of the cross-validation that chooses the threshold. */
  folds: number;
  /** Lead recall the threshold must keep, both across folds and across writers. */
  leadRecall: number;
}

export const SETTINGS: TrainingSettings = {
  features: { wordPairs: true, charMin: 3, charMax: 4, wordScale: 1, charScale: 1, cueScale: 1 },
  minCount: 3,
  l2: 0.0001,
  iterations: 300,
  folds: 5,
  leadRecall: 0.98,
};

/** Weights are rounded to this many decimals: the file stays small and the same on every run. */
const DECIMALS = 4;

/** Examples with their features, computed once for every fit of a training run. */
interface Featured {
  example: Example;
  features: Features;
}

function featurize(examples: Example[], settings: TrainingSettings): Featured[] {
  return examples.map((example) => ({
    example,
    features: extractFeatures(example.input, settings.features),
  }));
}

function fitModel(data: Featured[], settings: TrainingSettings, threshold: number): ModelData {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const { features } of data) {
    for (const key of features.values.keys()) count(key);
    for (const gram of features.chars.keys()) count(CHAR_PREFIX + gram);
  }
  const vocabulary = [...counts]
    .filter(([key, n]) => n >= settings.minCount || key.startsWith('s:') || key.startsWith('q:'))
    .map(([key]) => key)
    .sort();
  const column = new Map(vocabulary.map((key, i) => [key, i]));
  const rows = data.map(({ example, features }) => toRow(features, column, CLASSES.indexOf(example.label)));
  const fitted = fitLogistic(rows, {
    classes: CLASSES.length,
    columns: vocabulary.length,
    l2: settings.l2,
    iterations: settings.iterations,
  });
  const weights: Record<string, number[]> = {};
  vocabulary.forEach((key, j) => {
    const w = CLASSES.map((_, k) => round(fitted.weights[k * vocabulary.length + j]!));
    if (w.some((v) => v !== 0)) weights[key] = w;
  });
  return {
    about:
      'Lead/spam/vendor weights of the built-in classifier, written by `npm run train:classifier` from eval/classify/tune-a.json and tune-b.json; do not edit by hand.',
    classes: [...CLASSES],
    options: settings.features,
    threshold,
    bias: [...fitted.bias].map(round),
    weights,
  };
}

function toRow(features: Features, column: Map<string, number>, label: number): SparseRow {
  const pairs: [number, number][] = [];
  for (const [key, value] of features.values) {
    const j = column.get(key);
    if (j !== undefined) pairs.push([j, value]);
  }
  for (const gram of features.chars.keys()) {
    const j = column.get(CHAR_PREFIX + gram);
    if (j !== undefined) pairs.push([j, features.charValue]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  return {
    index: Int32Array.from(pairs, (p) => p[0]),
    value: Float64Array.from(pairs, (p) => p[1]),
    label,
  };
}

function round(value: number): number {
  const r = Number(value.toFixed(DECIMALS));
  return Object.is(r, -0) ? 0 : r;
}

/** An example scored by a model that never saw it. */
export interface Scored {
  example: Example;
  probabilities: Record<LeadClass, number>;
  /** The model that scored it (for the reasons of a miss). */
  model: LinearModel;
}

/** Stratified folds: within each class, examples in a fixed shuffle of their ids, dealt round-robin. */
export function assignFolds(examples: Example[], folds: number): number[] {
  const fold = new Array<number>(examples.length).fill(0);
  for (const label of CLASSES) {
    const members = examples
      .map((e, i) => [e, i] as const)
      .filter(([e]) => e.label === label)
      .sort((a, b) => hash(a[0].id) - hash(b[0].id) || (a[0].id < b[0].id ? -1 : 1));
    members.forEach(([, i], n) => {
      fold[i] = n % folds;
    });
  }
  return fold;
}

/** FNV-1a: a fixed shuffle, so a fold mixes writers and languages. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function scoreWith(model: LinearModel, data: Featured[]): Scored[] {
  return data.map(({ example, features }) => ({
    example,
    probabilities: model.probabilities(features),
    model,
  }));
}

export interface Validation {
  /** k-fold over every example. */
  kfold: Scored[];
  /** Trained on one writer's examples, scored on the other writers'. */
  byWriter: Scored[];
}

/** Out-of-sample probabilities for every example, twice: across folds and across writers. */
export function validate(examples: Example[], settings: TrainingSettings): Validation {
  return validateFeatured(featurize(examples, settings), settings);
}

function validateFeatured(data: Featured[], settings: TrainingSettings): Validation {
  const fold = assignFolds(
    data.map((d) => d.example),
    settings.folds,
  );
  const kfold = new Array<Scored>(data.length);
  for (let f = 0; f < settings.folds; f++) {
    const model = new LinearModel(
      fitModel(
        data.filter((_, i) => fold[i] !== f),
        settings,
        0.5,
      ),
    );
    const held = data.map((d, i) => [d, i] as const).filter(([, i]) => fold[i] === f);
    scoreWith(
      model,
      held.map(([d]) => d),
    ).forEach((scored, n) => {
      kfold[held[n]![1]] = scored;
    });
  }
  const writers = [...new Set(data.map((d) => d.example.writer))].sort();
  const byWriter = writers.flatMap((writer) => {
    const model = new LinearModel(
      fitModel(
        data.filter((d) => d.example.writer !== writer),
        settings,
        0.5,
      ),
    );
    return scoreWith(
      model,
      data.filter((d) => d.example.writer === writer),
    );
  });
  return { kfold, byWriter };
}

/**
 * The smallest threshold (in steps of 0.01, at least 0.5) whose lead recall reaches the target on
 * out-of-sample probabilities: as many spam and vendor caught as the asymmetric costs allow.
 */
export function chooseThreshold(scored: Scored[], leadRecall: number): number {
  const leads = scored.filter((s) => s.example.label === 'lead');
  for (let step = 50; step <= 99; step++) {
    const t = step / 100;
    const kept = leads.filter((s) => applyThreshold(s.probabilities, t) === 'lead').length;
    if (kept >= leadRecall * leads.length) return t;
  }
  return 0.99;
}

/** The threshold that keeps the lead recall both across folds and across writers. */
export function thresholdOf(validation: Validation, settings: TrainingSettings): number {
  return Math.max(
    chooseThreshold(validation.kfold, settings.leadRecall),
    chooseThreshold(validation.byWriter, settings.leadRecall),
  );
}

/** What `npm run train:classifier` writes: validation, the threshold, then the model on every example. */
export function train(examples: Example[], settings: TrainingSettings = SETTINGS): ModelData {
  const data = featurize(examples, settings);
  const threshold = thresholdOf(validateFeatured(data, settings), settings);
  return fitModel(data, settings, threshold);
}

/** The model as a file: one feature per line, keys sorted, so a retrain diffs readably. */
export function serializeModel(model: ModelData): string {
  const head = JSON.stringify({ ...model, weights: undefined }, null, 2).replace(/\n}$/, '');
  const lines = Object.keys(model.weights)
    .sort()
    .map((key) => `    ${JSON.stringify(key)}: ${JSON.stringify(model.weights[key])}`);
  return `${head},\n  "weights": {\n${lines.join(',\n')}\n  }\n}\n`;
}
