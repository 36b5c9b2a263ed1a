import { logits, type SoftmaxWeights, type SparseRow, softmax, trainSoftmax } from './linear.ts';

/**
 * One trained classifier: its classes, the feature names it knows and their weights. Features are
 * named (`w:website`, `c:_web`, `x:seo-services`); a name it never saw in training is ignored.
 */
export interface Classifier {
  classes: string[];
  vocab: Map<string, number>;
  weights: SoftmaxWeights;
}

/**
 * Features looked up once in a shared feature space: classifiers laid out on the same space (see
 * `onSpace`) read the same parts, so a message's thousands of feature names are looked up once, not
 * once per classifier.
 */
export interface Part {
  idx: Int32Array;
  val: Float64Array;
  /** Sum of the squares of all the values given, known to the space or not. */
  squares: number;
}

export function indexPart(space: Map<string, number>, features: Map<string, number>): Part {
  // Sized once for every feature (two allocations, not arrays grown feature by feature).
  const idx = new Int32Array(features.size);
  const val = new Float64Array(features.size);
  let n = 0;
  let squares = 0;
  features.forEach((value, name) => {
    squares += value * value;
    const j = space.get(name);
    if (j === undefined) return;
    idx[n] = j;
    val[n++] = value;
  });
  return { idx: idx.subarray(0, n), val: val.subarray(0, n), squares };
}

/** A row from parts: the `scaled` parts normalised together to `length`, the `plain` ones as they are. */
export function joinParts(scaled: Part[], plain: Part[], tied?: Float64Array, length = 1): SparseRow {
  let squares = 0;
  for (const part of scaled) squares += part.squares;
  const norm = (Math.sqrt(squares) || 1) / length;
  // Sized once (arrays grown by push were a recommend call's largest garbage).
  let size = 0;
  for (const part of scaled) size += part.idx.length;
  for (const part of plain) size += part.idx.length;
  const idx = new Int32Array(size);
  const val = new Float64Array(size);
  let n = 0;
  for (const part of scaled) {
    for (let i = 0; i < part.idx.length; i++) {
      idx[n] = part.idx[i]!;
      val[n++] = part.val[i]! / norm;
    }
  }
  for (const part of plain) {
    for (let i = 0; i < part.idx.length; i++) {
      idx[n] = part.idx[i]!;
      val[n++] = part.val[i]!;
    }
  }
  return tied ? { idx, val, tied } : { idx, val };
}

/** The same classifier with its weights laid out on `space` (features it does not know weigh 0). */
export function onSpace(clf: Classifier, space: Map<string, number>): Classifier {
  const k = clf.classes.length;
  const w = new Float64Array(space.size * k);
  for (const [name, j] of clf.vocab) {
    const g = space.get(name);
    if (g === undefined) continue;
    for (let c = 0; c < k; c++) w[g * k + c] = clf.weights.w[j * k + c]!;
  }
  return { classes: clf.classes, vocab: space, weights: { ...clf.weights, w } };
}

/**
 * Several classifiers on one space read in one pass: per feature, the weights of every class of every
 * classifier side by side (single precision: the stored weights have three decimals), so a part's
 * features are looked up and read once for all of them.
 */
export interface FusedClassifiers {
  /** Classes of all the classifiers together. */
  width: number;
  /** Where each classifier's classes start in a row. */
  offsets: number[];
  w: Float32Array;
}

export function fuse(classifiers: Classifier[], space: Map<string, number>): FusedClassifiers {
  const offsets: number[] = [];
  let width = 0;
  for (const clf of classifiers) {
    offsets.push(width);
    width += clf.classes.length;
  }
  const w = new Float32Array(space.size * width);
  classifiers.forEach((clf, n) => {
    const k = clf.classes.length;
    for (const [name, j] of clf.vocab) {
      const g = space.get(name);
      if (g === undefined) continue;
      for (let c = 0; c < k; c++) w[g * width + offsets[n]! + c] = clf.weights.w[j * k + c]!;
    }
  });
  return { width, offsets, w };
}

/** Σ value × weight of a part's features, for every class of the fused classifiers. */
export function partSums(fused: FusedClassifiers, part: Part): Float64Array {
  const width = fused.width;
  const out = new Float64Array(width);
  for (let i = 0; i < part.idx.length; i++) {
    const base = part.idx[i]! * width;
    const v = part.val[i]!;
    for (let c = 0; c < width; c++) out[c]! += v * fused.w[base + c]!;
  }
  return out;
}

/** Class probabilities of one row. */
export function probabilities(clf: Classifier, row: SparseRow): Float64Array {
  return softmax(logits(clf.weights, row));
}

/** One training example: feature maps scaled together, maps at their own scale, class-tied features. */
export interface Example {
  scaled: Map<string, number>[];
  /** Length the scaled features are normalised to (default 1). */
  length?: number;
  plain?: Map<string, number>[];
  tied?: Float64Array;
  label: string;
  weight?: number;
}

export interface ClassifierOptions {
  l2: number;
  iterations: number;
  /** A feature must occur in at least this many examples to be learnt. */
  minCount: number;
  tiedCount?: number;
}

/** The features occurring in at least `minCount` examples, sorted (the order never depends on the examples'). */
export function vocabularyOf(featureSets: Iterable<Iterable<string>>, minCount: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const names of featureSets)
    for (const name of new Set(names)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts]
    .filter(([, n]) => n >= minCount)
    .map(([name]) => name)
    .sort();
  return new Map(names.map((name, i) => [name, i]));
}

export function rowOfExample(vocab: Map<string, number>, e: Omit<Example, 'label'>): SparseRow {
  return joinParts(
    e.scaled.map((m) => indexPart(vocab, m)),
    (e.plain ?? []).map((m) => indexPart(vocab, m)),
    e.tied,
    e.length,
  );
}

/** Trains a classifier: vocabulary, then weights. */
export function trainClassifier(
  classes: string[],
  examples: Example[],
  options: ClassifierOptions,
): Classifier {
  const vocab = vocabularyOf(
    examples.map((e) => [...e.scaled, ...(e.plain ?? [])].flatMap((m) => [...m.keys()])),
    options.minCount,
  );
  const rows = examples.map((e) => rowOfExample(vocab, e));
  const labels = examples.map((e) => {
    const c = classes.indexOf(e.label);
    if (c < 0) throw new Error(`unknown class ${e.label}`);
    return c;
  });
  const weights = trainSoftmax(
    rows,
    labels,
    classes.length,
    vocab.size,
    { l2: options.l2, iterations: options.iterations, sampleWeights: examples.map((e) => e.weight ?? 1) },
    options.tiedCount ?? 0,
  );
  return { classes, vocab, weights };
}

/** Decimal places kept in the weights file: enough for every decision, small enough to read. */
const PRECISION = 1e3;

export interface StoredClassifier {
  classes: string[];
  /** Feature names, each followed by one weight per class (×1000, rounded). */
  weights: [string, ...number[]][];
  bias: number[];
  tied: number[];
}

const round = (x: number) => Math.round(x * PRECISION);

/** The classifier as data: features whose weights all round to zero are left out. */
export function storeClassifier(clf: Classifier): StoredClassifier {
  const k = clf.classes.length;
  const weights: [string, ...number[]][] = [];
  for (const [name, j] of clf.vocab) {
    const row = Array.from(clf.weights.w.subarray(j * k, j * k + k), round);
    if (row.some((x) => x !== 0)) weights.push([name, ...row]);
  }
  return {
    classes: clf.classes,
    weights,
    bias: Array.from(clf.weights.b, round),
    tied: Array.from(clf.weights.t, round),
  };
}

export function loadClassifier(stored: StoredClassifier): Classifier {
  const k = stored.classes.length;
  const vocab = new Map<string, number>();
  const w = new Float64Array(stored.weights.length * k);
  stored.weights.forEach(([name, ...row], j) => {
    vocab.set(name, j);
    for (let c = 0; c < k; c++) w[j * k + c] = row[c]! / PRECISION;
  });
  return {
    classes: stored.classes,
    vocab,
    weights: {
      w,
      b: Float64Array.from(stored.bias, (x) => x / PRECISION),
      t: Float64Array.from(stored.tied, (x) => x / PRECISION),
      classes: k,
    },
  };
}

/**
 * Several two-class classifiers (`out`/`in`) stored as one table: per feature, the difference of
 * its `in` and `out` weights for each (the probability of `in` only depends on that difference).
 */
export interface StoredBinaryTable {
  keys: string[];
  bias: number[];
  weights: [string, ...number[]][];
}

export function storeBinaryTable(
  classifiers: Record<string, Classifier>,
  keys: readonly string[],
): StoredBinaryTable {
  const names = new Set<string>();
  for (const key of keys) for (const name of classifiers[key]!.vocab.keys()) names.add(name);
  const diff = (clf: Classifier, j: number | undefined) =>
    j === undefined ? 0 : round(clf.weights.w[j * 2 + 1]! - clf.weights.w[j * 2]!);
  const weights: [string, ...number[]][] = [];
  for (const name of [...names].sort()) {
    const row = keys.map((key) => diff(classifiers[key]!, classifiers[key]!.vocab.get(name)));
    if (row.some((x) => x !== 0)) weights.push([name, ...row]);
  }
  return {
    keys: [...keys],
    bias: keys.map((key) => round(classifiers[key]!.weights.b[1]! - classifiers[key]!.weights.b[0]!)),
    weights,
  };
}

/**
 * Several two-class classifiers read together: per feature, one weight per key (its `in` minus `out`
 * weight), so each token's features are looked up once for all sections.
 */
export interface BinaryTable {
  keys: string[];
  vocab: Map<string, number>;
  /** Row-major `features × keys`. */
  w: Float64Array;
  b: Float64Array;
}

export function loadBinaryTable(stored: StoredBinaryTable): BinaryTable {
  const k = stored.keys.length;
  const vocab = new Map<string, number>();
  const w = new Float64Array(stored.weights.length * k);
  stored.weights.forEach(([name, ...row], j) => {
    vocab.set(name, j);
    for (let c = 0; c < k; c++) w[j * k + c] = row[c]! / PRECISION;
  });
  return { keys: stored.keys, vocab, w, b: Float64Array.from(stored.bias, (x) => x / PRECISION) };
}

export function storeTable(table: BinaryTable): StoredBinaryTable {
  const k = table.keys.length;
  const weights: [string, ...number[]][] = [];
  for (const [name, j] of table.vocab) {
    const row = Array.from(table.w.subarray(j * k, j * k + k), round);
    if (row.some((x) => x !== 0)) weights.push([name, ...row]);
  }
  return { keys: table.keys, bias: Array.from(table.b, round), weights };
}

/** The probability of `in` for every key, for one token's (binary) features. */
export function binaryProbabilities(table: BinaryTable, features: string[], out: Float64Array): Float64Array {
  const k = table.keys.length;
  for (let c = 0; c < k; c++) out[c] = 0;
  // Binary features, normalised over all of them (known or not), as rowOf does.
  const scale = 1 / Math.sqrt(features.length || 1);
  for (const name of features) {
    const j = table.vocab.get(name);
    if (j === undefined) continue;
    const base = j * k;
    for (let c = 0; c < k; c++) out[c]! += table.w[base + c]!;
  }
  for (let c = 0; c < k; c++) out[c] = 1 / (1 + Math.exp(-(out[c]! * scale + table.b[c]!)));
  return out;
}
