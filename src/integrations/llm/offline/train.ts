import { type Facts, pathText } from './facts.ts';
import { trainSoftmax } from './linear.ts';
import {
  type DecisionParameters,
  type EngineModel,
  FIELD_KEYS,
  FIELD_TIED,
  FIELD_VALUES,
  type FieldReading,
  fieldInputs,
  namedInputs,
  PATH_TIED,
  pathInputs,
  type Reading,
  readForFields,
  readMessage,
} from './model.ts';
import { loadEngineModel, storeEngineModel, type TrainedModels } from './model-store.ts';
import { locatePhrase, tokenFeatures } from './tagger.ts';
import {
  type Classifier,
  type Example,
  rowOfExample,
  trainClassifier,
  vocabularyOf,
} from './trained-classifier.ts';
import { PATHS, SECTION_KEYS, type SectionKey } from './vocabulary.ts';

/**
 * Training of the offline engine's models from labelled messages (the tuning sets in eval/). Pure
 * and deterministic: the same examples and parameters give the same model, bit for bit.
 */
export interface RecommendExample {
  id: string;
  message: string;
  path: string;
  facts?: Facts;
  weight?: number;
}

export interface RefineExample {
  id: string;
  message: string;
  fields: Record<string, string | null>;
  /** Gold sections: phrases copied from the message. */
  sections?: Record<string, string[]>;
  weight?: number;
}

export interface TrainingData {
  recommend: RecommendExample[];
  refine: RefineExample[];
}

export interface TrainingParameters {
  pathL2: number;
  fieldL2: number;
  sectionL2: number;
  iterations: number;
  minCount: number;
  decisions: DecisionParameters;
}

export const TRAINING_PARAMETERS: TrainingParameters = {
  pathL2: 3e-4,
  fieldL2: 1e-3,
  sectionL2: 1e-5,
  iterations: 300,
  minCount: 2,
  decisions: {
    buildWeight: 0.6,
    sectionThreshold: {
      service: 0.15,
      goal: 0.06,
      industry: 0.15,
      features: 0.1,
      audience: 0.15,
      style: 0.15,
      constraints: 0.4,
      context: 0.25,
    },
    nullBias: { initialChoice: 0, service: 0, industry: 0, audience: 0, style: 0 },
    absentBelow: { goal: 0.005, features: 0.003, audience: 0.005, industry: 0.01 },
  },
};

/** Readings are cached by text: cross-validation reads every message once, not once per fold. */
const readings = new Map<string, FieldReading>();
function read(text: string): FieldReading {
  let reading = readings.get(text);
  if (!reading) {
    reading = readForFields(readMessage(text));
    readings.set(text, reading);
  }
  return reading;
}

/**
 * The engine's models trained on `data`, as they are stored (weights rounded, features without
 * weight left out): what cross-validation measures is what engine-model.json holds.
 */
export function trainEngineModel(
  data: TrainingData,
  params: TrainingParameters = TRAINING_PARAMETERS,
): EngineModel {
  const trained: TrainedModels = {
    path: trainPathModel(data.recommend, params),
    fields: trainFieldModels(data.refine, params),
    sections: trainSectionModels(data.refine, params),
    decisions: params.decisions,
  };
  return loadEngineModel(storeEngineModel(trained, ''));
}

export function trainPathModel(recommend: RecommendExample[], params: TrainingParameters): Classifier {
  const examples: Example[] = recommend.map((e) => {
    const facts = e.facts ?? {};
    const inputs = pathInputs(read(pathText(e.message, facts)), facts, read(e.message).wordCount);
    return { ...namedInputs(inputs), label: e.path, weight: e.weight ?? 1 };
  });
  return trainClassifier([...PATHS], examples, {
    iterations: params.iterations,
    minCount: params.minCount,
    l2: params.pathL2,
    tiedCount: PATH_TIED,
  });
}

export function trainFieldModels(refine: RefineExample[], params: TrainingParameters): EngineModel['fields'] {
  const fields = {} as EngineModel['fields'];
  for (const key of FIELD_KEYS) {
    const classes = ['null', ...FIELD_VALUES[key]];
    const examples: Example[] = refine.map((e) => ({
      ...namedInputs(fieldInputs(read(e.message), key, classes)),
      label: e.fields[key] ?? 'null',
      weight: e.weight ?? 1,
    }));
    fields[key] = trainClassifier(classes, examples, {
      iterations: params.iterations,
      minCount: params.minCount,
      l2: params.fieldL2,
      tiedCount: FIELD_TIED,
    });
  }
  return fields;
}

/** One two-class classifier per section over the words of the messages with gold sections (rows built once). */
export function trainSectionModels(
  refine: RefineExample[],
  params: TrainingParameters,
): Record<SectionKey, Classifier> {
  const tokens = refine
    .filter((e) => e.sections)
    .flatMap((e) => {
      const reading = read(e.message);
      const labels = tokenLabels(reading, e);
      return tokenFeatures(reading.message, reading.tokens).map((features, i) => ({
        features,
        labels: labels[i]!,
      }));
    });
  const vocab = vocabularyOf(
    tokens.map((t) => t.features),
    params.minCount,
  );
  const rows = tokens.map((t) => rowOfExample(vocab, { scaled: [new Map(t.features.map((f) => [f, 1]))] }));
  const sections = {} as Record<SectionKey, Classifier>;
  for (const key of SECTION_KEYS) {
    const labels = tokens.map((t) => (t.labels.has(key) ? 1 : 0));
    sections[key] = {
      classes: ['out', 'in'],
      vocab,
      weights: trainSoftmax(rows, labels, 2, vocab.size, {
        l2: params.sectionL2,
        iterations: params.iterations,
      }),
    };
  }
  return sections;
}

/** The sections each token of a message belongs to, from the gold phrases. */
export function tokenLabels(reading: Reading, example: RefineExample): Set<SectionKey>[] {
  const labels = reading.tokens.map(() => new Set<SectionKey>());
  for (const key of SECTION_KEYS) {
    for (const phrase of example.sections?.[key] ?? []) {
      const range = locatePhrase(reading.tokens, phrase);
      if (!range) continue;
      for (let i = range[0]; i <= range[1]; i++) labels[i]!.add(key);
    }
  }
  return labels;
}
