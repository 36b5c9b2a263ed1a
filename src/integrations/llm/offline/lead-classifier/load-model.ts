import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LinearModel, type ModelData } from './model.ts';

/** The trained weights, written by `npm run train:classifier` (scripts/train-classifier.ts). */
export const MODEL_PATH = join(import.meta.dirname, '../data/lead-classifier.json');

export function loadModel(path = MODEL_PATH): LinearModel {
  return new LinearModel(JSON.parse(readFileSync(path, 'utf8')) as ModelData);
}
