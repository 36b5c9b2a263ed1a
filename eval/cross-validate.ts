import type { EngineModel } from '../src/integrations/llm/offline/model.ts';
import {
  TRAINING_PARAMETERS,
  type TrainingData,
  trainEngineModel,
} from '../src/integrations/llm/offline/train.ts';
import { trainingData } from './engine-data.ts';
import { AI_TUNING_SETS, type AiSet, readAiSet } from './sets.ts';

/**
 * k-fold cross-validation of the engine's training. Every message of the tuning sets falls in one
 * fold; the model that answers it is trained on the tuning sets without that fold, with the same
 * data weights and parameters as `npm run train:engine`. A message and its translation (same number
 * in the id, `t-ref-en-012` / `t-ref-es-012`) share a fold, so neither is learnt from the other.
 */
export function foldOf(id: string, folds: number): number {
  const group = id.replace(/(^|-)(?:en|es)(?=-)/, '');
  let hash = 2166136261;
  for (let i = 0; i < group.length; i++) {
    hash ^= group.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % folds;
}

function without(data: TrainingData, fold: number, folds: number): TrainingData {
  return {
    recommend: data.recommend.filter((e) => foldOf(e.id, folds) !== fold),
    refine: data.refine.filter((e) => foldOf(e.id, folds) !== fold),
  };
}

/** For each message id, the model trained without its fold (trained on first use, once per fold). */
export function crossValidatedModels(
  _scored: AiSet[],
  folds: number,
  params = TRAINING_PARAMETERS,
): (id: string) => EngineModel {
  const data = trainingData(AI_TUNING_SETS.map(readAiSet));
  const models = new Map<number, EngineModel>();
  return (id) => {
    const fold = foldOf(id, folds);
    let model = models.get(fold);
    if (!model) {
      model = trainEngineModel(without(data, fold, folds), params);
      models.set(fold, model);
    }
    return model;
  };
}
