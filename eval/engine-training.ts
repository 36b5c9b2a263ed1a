import { join } from 'node:path';
import { storeEngineModel } from '../src/integrations/llm/offline/model-store.ts';
import { TRAINING_PARAMETERS, trainEngineModel } from '../src/integrations/llm/offline/train.ts';
import { trainingData } from './engine-data.ts';
import { AI_TUNING_SETS, readAiSet } from './sets.ts';

/** Where the committed model lives, beside the engine that reads it. */
export const ENGINE_MODEL_FILE = join(
  import.meta.dirname,
  '..',
  'src',
  'integrations',
  'llm',
  'offline',
  'data',
  'engine-model.json',
);

/**
 * The engine's model trained on every tuning set, as the text of engine-model.json: one line per
 * classifier header and per feature, so a retraining shows as a readable diff.
 */
export function trainedModelText(): string {
  const model = trainEngineModel(trainingData(AI_TUNING_SETS.map(readAiSet)), TRAINING_PARAMETERS);
  const stored = storeEngineModel(
    model,
    `Trained by npm run train:engine on ${AI_TUNING_SETS.join(', ')} (eval/); never on the frozen holdout.`,
  );
  const lines: string[] = ['{'];
  lines.push(`  "about": ${JSON.stringify(stored.about)},`);
  lines.push(`  "decisions": ${JSON.stringify(stored.decisions)},`);
  const classifiers = Object.entries(stored.classifiers);
  lines.push('  "classifiers": {');
  classifiers.forEach(([name, clf], i) => {
    lines.push(`    ${JSON.stringify(name)}: {`);
    lines.push(`      "classes": ${JSON.stringify(clf.classes)},`);
    lines.push(`      "bias": ${JSON.stringify(clf.bias)},`);
    lines.push(`      "tied": ${JSON.stringify(clf.tied)},`);
    lines.push('      "weights": [');
    for (const [j, row] of clf.weights.entries())
      lines.push(`        ${JSON.stringify(row)}${j + 1 < clf.weights.length ? ',' : ''}`);
    lines.push('      ]');
    lines.push(`    }${i + 1 < classifiers.length ? ',' : ''}`);
  });
  lines.push('  },');
  lines.push('  "sections": {');
  lines.push(`    "keys": ${JSON.stringify(stored.sections.keys)},`);
  lines.push(`    "bias": ${JSON.stringify(stored.sections.bias)},`);
  lines.push('    "weights": [');
  const rows = stored.sections.weights;
  for (const [j, row] of rows.entries())
    lines.push(`      ${JSON.stringify(row)}${j + 1 < rows.length ? ',' : ''}`);
  lines.push('    ]');
  lines.push('  }');
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
