/**
 * `npm run train:engine [-- --check]`: trains the offline engine's models on the tuning sets
 * (eval/sets.ts: every set but the frozen holdout) and writes them to
 * src/integrations/llm/offline/data/engine-model.json. Deterministic: the same sets give the same file,
 * byte for byte. `--check` writes nothing and exits 1 when the committed file differs from a fresh
 * training (the engine test runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ENGINE_MODEL_FILE, trainedModelText } from '../eval/engine-training.ts';

const text = trainedModelText();
if (process.argv.includes('--check')) {
  const committed = readFileSync(ENGINE_MODEL_FILE, 'utf8');
  if (committed !== text) {
    console.error(`${ENGINE_MODEL_FILE} differs from a fresh training: run npm run train:engine`);
    process.exitCode = 1;
  } else console.log(`${ENGINE_MODEL_FILE} is what the tuning sets train`);
} else {
  writeFileSync(ENGINE_MODEL_FILE, text);
  console.log(`wrote ${ENGINE_MODEL_FILE} (${(text.length / 1024).toFixed(0)} kB)`);
}
