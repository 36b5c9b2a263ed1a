import { type Analysis, analyze } from './analyze.ts';
import { type Facts, factPath, PATH_TIED, pathTied, SAYS_NOTHING_WORDS } from './facts.ts';
import {
  analysisFeatures,
  conceptFeatures,
  FIELD_TIED,
  type FieldEvidence,
  fieldEvidence,
  fieldTied,
  meaningFeatures,
  textFeatures,
  textPartOn,
} from './features.ts';
import { softmax } from './linear.ts';
import { type TaggedToken, tagTokens } from './tagger.ts';
import { fold } from './text.ts';
import {
  type BinaryTable,
  type Classifier,
  type Example,
  type FusedClassifiers,
  indexPart,
  joinParts,
  type Part,
  partSums,
  probabilities,
} from './trained-classifier.ts';
import {
  AUDIENCES,
  INDUSTRIES,
  INITIAL_CHOICES,
  PATHS,
  type PlanPath,
  type RefineFields,
  SERVICES,
  type SectionKey,
  type Service,
  STYLES,
} from './vocabulary.ts';

/**
 * The offline engine's trained models: the service path (recommend-plan), each wizard field and
 * the refine sections' phrase tagger, with the few decision parameters chosen by cross-validation.
 * Produced by `npm run train:engine` (train.ts) and stored in engine-model.json (model-store.ts).
 */
export const FIELD_KEYS = ['initialChoice', 'service', 'industry', 'audience', 'style'] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

export const FIELD_VALUES: Record<FieldKey, readonly string[]> = {
  initialChoice: INITIAL_CHOICES,
  service: SERVICES,
  industry: INDUSTRIES,
  audience: AUDIENCES,
  style: STYLES,
};

export { FIELD_TIED, PATH_TIED };

export interface DecisionParameters {
  /** Build's probability is weighed by this before the paths are compared (see mostLikely). */
  buildWeight: number;
  /** Probability a token needs to belong to a section's phrase. */
  sectionThreshold: Record<SectionKey, number>;
  /** Added to the `null` class's log-probability of each field: the policy is strict. */
  nullBias: Record<FieldKey, number>;
  /**
   * A dimension is reported missing only when no word of the message reaches this probability for
   * its section: asking for what was said is worse than not asking.
   */
  absentBelow: Record<'goal' | 'features' | 'audience' | 'industry', number>;
}

export interface EngineModel {
  /** The feature space the path and field classifiers share (each name looked up once). */
  space: Map<string, number>;
  path: Classifier;
  fields: Record<FieldKey, Classifier>;
  /** The field classifiers' weights on `space`, in FIELD_KEYS order (read together, see predictFields). */
  fused: FusedClassifiers;
  sections: BinaryTable;
  decisions: DecisionParameters;
}

/** One message read once: what every model needs. */
export interface Reading {
  message: string;
  folded: string;
  text: TextFeatures;
  /** Features of meaning, at their own scale (features.ts). */
  meaning: Map<string, number>;
  tokens: TaggedToken[];
  wordCount: number;
}

/** What the field models read besides: the hand-made analysis and the sector and segment words. */
export interface FieldReading extends Reading {
  analysis: Analysis;
  /** The analysis's decisions as features. */
  analysisFeatures: Map<string, number>;
  /** The policy's concepts and the analysis, at their own scale (initial choice and service). */
  workFeatures: Map<string, number>;
  evidence: FieldEvidence;
}

/**
 * A text's features looked up in a model's feature space (readMessage and readForPath given the
 * space, when answering): the rows below take the part as it is. Training reads names instead.
 */
export interface IndexedText {
  space: Map<string, number>;
  part: Part;
}

/** A text's features by name (training), or already looked up in a space (answering). */
export type TextFeatures = Map<string, number> | IndexedText;

/** `space`: the model's feature space, when the reading is for it (answering; training reads names). */
function readText(message: string, folded: string, space?: Map<string, number>): TextFeatures {
  return space ? { space, part: textPartOn(space, folded) } : textFeatures(message, folded);
}

/** Features' part in `space`: looked up by name, or as read for that space. */
function partOf(space: Map<string, number>, features: TextFeatures): Part {
  if (features instanceof Map) return indexPart(space, features);
  if (features.space !== space) throw new Error('text features read for another feature space');
  return features.part;
}

/** Inputs as a training example takes them: features by name (a reading made without a space). */
export function namedInputs(inputs: Inputs): Omit<Example, 'label'> {
  const named = (features: TextFeatures) => {
    if (!(features instanceof Map)) throw new Error('training reads features by name, not for a space');
    return features;
  };
  return { ...inputs, scaled: inputs.scaled.map(named), plain: inputs.plain.map(named) };
}

export function readMessage(message: string, space?: Map<string, number>): Reading {
  const folded = fold(message);
  const tokens = tagTokens(message, folded);
  return {
    message,
    folded,
    text: readText(message, folded, space),
    meaning: meaningFeatures(message, folded, tokens.length),
    tokens,
    wordCount: tokens.length,
  };
}

/** A reading completed for the field models (refine only: recommend-plan does not need them). */
export function readForFields(reading: Reading): FieldReading {
  const analysis = analyze(reading.message);
  return {
    ...reading,
    analysis,
    analysisFeatures: analysisFeatures(analysis, new Map()),
    workFeatures: conceptFeatures(reading.tokens, analysisFeatures(analysis, new Map())),
    evidence: fieldEvidence(reading.tokens),
  };
}

/** What the path model reads of a text alone (no analysis, no tagging). */
export type PathReading = Pick<Reading, 'text' | 'meaning'>;

export function readForPath(text: string, space?: Map<string, number>): PathReading {
  const folded = fold(text);
  const count = folded.match(/[a-z0-9]+/g)?.length ?? 0;
  return { text: readText(text, folded, space), meaning: meaningFeatures(text, folded, count) };
}

/**
 * The inputs of a classifier: feature maps scaled together (the words), feature maps read at their
 * own scale (meaning), and class-tied features. Training and answering build rows from the same inputs.
 */
export interface Inputs {
  scaled: TextFeatures[];
  /** Length the scaled features are normalised to: how much the words weigh against the rest. */
  length?: number;
  plain: TextFeatures[];
  tied?: Float64Array;
}

/** The words' weight against the path framings and lexicon readings (chosen by cross-validation). */
const PATH_TEXT_LENGTH = 3;

export function pathInputs(reading: PathReading, facts: Facts, wordCount: number): Inputs {
  return {
    scaled: [reading.text],
    length: PATH_TEXT_LENGTH,
    plain: [reading.meaning],
    tied: pathTied(facts, wordCount),
  };
}

/**
 * A field model's inputs: the kind-of-work fields read the policy's concepts and the analysis at
 * their own scale; sector, audience and style read the analysis with the words. Each has its own
 * class-tied evidence (fieldTied).
 */
export function fieldInputs(reading: FieldReading, key: FieldKey, classes: readonly string[]): Inputs {
  const tied = fieldTied(key, classes, reading.analysis, reading.tokens, reading.evidence);
  return key === 'initialChoice' || key === 'service'
    ? { scaled: [reading.text], plain: [reading.workFeatures], tied }
    : { scaled: [reading.text, reading.analysisFeatures], plain: [], tied };
}

/** Rows built from inputs, each feature map looked up once in the model's space however many classifiers read it. */
function rowMaker(space: Map<string, number>) {
  const parts = new Map<TextFeatures, Part>();
  const part = (features: TextFeatures) => {
    let found = parts.get(features);
    if (!found) {
      found = partOf(space, features);
      parts.set(features, found);
    }
    return found;
  };
  return (inputs: Inputs) =>
    joinParts(inputs.scaled.map(part), inputs.plain.map(part), inputs.tied, inputs.length);
}

export interface PathPrediction {
  path: PlanPath;
  probabilities: Record<PlanPath, number>;
}

export function pathProbabilities(model: EngineModel, inputs: Inputs): Record<PlanPath, number> {
  const probs = probabilities(model.path, rowMaker(model.space)(inputs));
  const out = {} as Record<PlanPath, number>;
  model.path.classes.forEach((c, i) => {
    out[c as PlanPath] = probs[i]!;
  });
  return out;
}

/**
 * The most likely path, Build's probability weighed by `buildWeight` first: the policy's tie-breakers
 * all go against "new build" (launch or MVP framing beats it, integration at the core beats it), so
 * Build is taken when the evidence for it clearly leads.
 */
const mostLikely = (p: Record<PlanPath, number>, buildWeight: number) => {
  const weighed = (x: PlanPath) => (x === 'Build' ? p[x] * buildWeight : p[x]);
  return PATHS.reduce((a, b) => (weighed(b) > weighed(a) + 1e-12 ? b : a), 'Technical Review' as PlanPath);
};

/**
 * The path for a message (`reading`: of the message with the wizard's free-text answers, when
 * given) and the wizard's other answers. The policy's rule: the answers decide when the text says
 * nothing (a short message the text alone reads as Technical Review: "When can we talk?");
 * otherwise the model weighs them with the text, as it learnt to.
 */
export function predictPath(
  model: EngineModel,
  reading: PathReading,
  facts: Facts = {},
  wordCount = Number.POSITIVE_INFINITY,
): PathPrediction {
  const withFacts = pathProbabilities(model, pathInputs(reading, facts, wordCount));
  const fromFacts = factPath(facts);
  if (fromFacts && wordCount <= SAYS_NOTHING_WORDS) {
    const textOnly = pathProbabilities(model, pathInputs(reading, {}, wordCount));
    if (mostLikely(textOnly, model.decisions.buildWeight) === 'Technical Review')
      return { path: fromFacts, probabilities: withFacts };
  }
  return { path: mostLikely(withFacts, model.decisions.buildWeight), probabilities: withFacts };
}

/**
 * The initial choice a service implies under the policy: building is `create`, support of something
 * that exists is `help`, consultation is `advice`, and pure automation and staffing carry none.
 */
const CHOICE_OF_SERVICE: Record<Service, string | null> = {
  'build-website': 'create',
  'build-application': 'create',
  'development-support': 'help',
  'infrastructure-scale': 'help',
  'seo-services': 'help',
  'maintenance-plans': 'help',
  'workflow-automation': null,
  'dedicated-team': null,
  'strategic-consultation': 'advice',
  'technical-advisory': 'advice',
};

/** A field model's logits from the sums of its parts (rowOfExample's row, read as parts). */
function fieldLogits(
  weights: Classifier['weights'],
  offset: number,
  scaled: readonly PartSums[],
  plain: readonly PartSums[],
  scale: number,
  tied: Float64Array | undefined,
): Float64Array {
  const k = weights.b.length;
  const g = weights.t.length;
  const logits = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    let z = weights.b[c]!;
    for (let i = 0; i < scaled.length; i++) z += scaled[i]!.sums[offset + c]! * scale;
    for (let i = 0; i < plain.length; i++) z += plain[i]!.sums[offset + c]!;
    if (tied) for (let j = 0; j < g; j++) z += weights.t[j]! * tied[c * g + j]!;
    logits[c] = z;
  }
  return logits;
}

/** A part's squares and its sums for every class of the fused field models. */
interface PartSums {
  squares: number;
  sums: Float64Array;
}

/**
 * The five fields: each model's most likely value after the strictness bias on `null`; the initial
 * choice and the service are chosen together, among the pairs the policy allows (a service and the
 * choice it implies, or no service and any choice).
 */
export function predictFields(model: EngineModel, reading: FieldReading): RefineFields {
  const sums = new Map<TextFeatures, PartSums>();
  const read = (features: TextFeatures) => {
    let found = sums.get(features);
    if (!found) {
      const part = partOf(model.space, features);
      found = { squares: part.squares, sums: partSums(model.fused, part) };
      sums.set(features, found);
    }
    return found;
  };
  // Each field's log-probability per class, in the order of its classes.
  const logProbs = {} as Record<FieldKey, Float64Array>;
  for (let n = 0; n < FIELD_KEYS.length; n++) {
    const key = FIELD_KEYS[n]!;
    const clf = model.fields[key];
    const inputs = fieldInputs(reading, key, clf.classes);
    // The logits of rowOfExample's row, from each part's sums: scaled parts share one norm.
    const scaled = inputs.scaled.map(read);
    const plain = inputs.plain.map(read);
    let squares = 0;
    for (const part of scaled) squares += part.squares;
    const scale = (inputs.length ?? 1) / (Math.sqrt(squares) || 1);
    const probs = softmax(
      fieldLogits(clf.weights, model.fused.offsets[n]!, scaled, plain, scale, inputs.tied),
    );
    const k = clf.classes.length;
    const nullBias = model.decisions.nullBias[key];
    for (let c = 0; c < k; c++) {
      probs[c] = Math.log(Math.max(probs[c]!, 1e-12)) + (clf.classes[c] === 'null' ? nullBias : 0);
    }
    logProbs[key] = probs;
  }
  const value = (key: FieldKey, c: number) => {
    const name = model.fields[key].classes[c]!;
    return name === 'null' ? null : name;
  };
  let pair: [string | null, string | null] = [null, null];
  let pairScore = Number.NEGATIVE_INFINITY;
  const choices = logProbs.initialChoice;
  const services = logProbs.service;
  for (let i = 0; i < choices.length; i++) {
    const choice = value('initialChoice', i);
    for (let j = 0; j < services.length; j++) {
      const service = value('service', j);
      if (service !== null && CHOICE_OF_SERVICE[service as Service] !== choice) continue;
      if (choices[i]! + services[j]! > pairScore + 1e-12) {
        pairScore = choices[i]! + services[j]!;
        pair = [choice, service];
      }
    }
  }
  const argmax = (key: FieldKey) => {
    const scores = logProbs[key];
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < scores.length; c++) {
      if (scores[c]! > bestScore + 1e-12) {
        best = c;
        bestScore = scores[c]!;
      }
    }
    return best < 0 ? null : value(key, best);
  };
  return {
    initialChoice: pair[0] as RefineFields['initialChoice'],
    service: pair[1] as RefineFields['service'],
    industry: argmax('industry') as RefineFields['industry'],
    audience: argmax('audience') as RefineFields['audience'],
    style: argmax('style') as RefineFields['style'],
  };
}
