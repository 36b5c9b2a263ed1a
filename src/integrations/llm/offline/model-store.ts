import { type DecisionParameters, type EngineModel, FIELD_KEYS, type FieldKey } from './model.ts';
import {
  type BinaryTable,
  type Classifier,
  fuse,
  loadBinaryTable,
  loadClassifier,
  onSpace,
  type StoredBinaryTable,
  type StoredClassifier,
  storeBinaryTable,
  storeClassifier,
  storeTable,
} from './trained-classifier.ts';
import { SECTION_KEYS, type SectionKey } from './vocabulary.ts';

/**
 * engine-model.json: the decisions, the path and field classifiers by name (`path`,
 * `fields.service`…), and the section tagger as one table (a column per section).
 */
export interface StoredEngineModel {
  about: string;
  decisions: DecisionParameters;
  classifiers: Record<string, StoredClassifier>;
  sections: StoredBinaryTable;
}

/** Models as training makes them: one two-class classifier per section. */
export interface TrainedModels {
  path: Classifier;
  fields: Record<FieldKey, Classifier>;
  sections: Record<SectionKey, Classifier> | BinaryTable;
  decisions: DecisionParameters;
}

export function storeEngineModel(model: TrainedModels | EngineModel, about: string): StoredEngineModel {
  const classifiers: Record<string, StoredClassifier> = { path: storeClassifier(model.path) };
  for (const key of FIELD_KEYS) classifiers[`fields.${key}`] = storeClassifier(model.fields[key]);
  const sections =
    'keys' in model.sections
      ? storeTable(model.sections as BinaryTable)
      : storeBinaryTable(model.sections as Record<SectionKey, Classifier>, SECTION_KEYS);
  return { about, decisions: model.decisions, classifiers, sections };
}

export function loadEngineModel(stored: StoredEngineModel): EngineModel {
  const get = (name: string) => {
    const clf = stored.classifiers[name];
    if (!clf) throw new Error(`engine-model.json has no classifier ${name}`);
    return loadClassifier(clf);
  };
  const path = get('path');
  const fields = Object.fromEntries(FIELD_KEYS.map((k) => [k, get(`fields.${k}`)])) as Record<
    FieldKey,
    Classifier
  >;
  const names = new Set<string>();
  for (const clf of [path, ...Object.values(fields)]) for (const name of clf.vocab.keys()) names.add(name);
  const space = new Map([...names].sort().map((name, i) => [name, i]));
  return {
    space,
    path: onSpace(path, space),
    // The field classifiers keep their own vocabulary: they are read through `fused`.
    fields,
    fused: fuse(
      FIELD_KEYS.map((k) => fields[k]),
      space,
    ),
    sections: loadBinaryTable(stored.sections),
    decisions: stored.decisions,
  };
}
