/**
 * `npm run train:classifier`: trains the built-in lead classifier on the tuning sets and writes its
 * weights (src/integrations/llm/offline/data/lead-classifier.json). Same data, same file, byte for byte.
 *
 * `npm run train:classifier -- --report [--set key=value …]`: writes nothing; prints the
 * cross-validated figures instead: 10-fold on both sets, and by writer (train on tune-a, score tune-b,
 * and the reverse), at the threshold the trainer would choose and at a range of thresholds. `--set`
 * tries other settings (`--set l2=0.003 --set features.charMax=4`). Never point it at the holdout.
 */
import { writeFileSync } from 'node:fs';
import { formatMetrics, measure } from '../eval/classify/metrics.ts';
import { readClassifySet, TUNING_SETS } from '../eval/classify/sets.ts';
import { MODEL_PATH } from '../src/integrations/llm/offline/lead-classifier/load-model.ts';
import { applyThreshold } from '../src/integrations/llm/offline/lead-classifier/model.ts';
import {
  type Example,
  type Scored,
  SETTINGS,
  serializeModel,
  type TrainingSettings,
  thresholdOf,
  train,
  validate,
} from '../src/integrations/llm/offline/lead-classifier/train.ts';

const args = process.argv.slice(2);
const examples: Example[] = TUNING_SETS.flatMap((file) =>
  readClassifySet(file).map((item) => ({
    id: item.id,
    label: item.label,
    input: item.submission,
    writer: file,
    tags: item.tags,
  })),
);

if (!args.includes('--report')) {
  const started = performance.now();
  writeFileSync(MODEL_PATH, serializeModel(train(examples)));
  console.log(`wrote ${MODEL_PATH} in ${Math.round(performance.now() - started)} ms`);
} else {
  const settings = withOverrides(SETTINGS, args);
  const { kfold, byWriter } = validate(examples, settings);
  const threshold = thresholdOf({ kfold, byWriter }, settings);
  if (args.includes('--summary')) {
    console.log(`t=${threshold} k-fold ${row(kfold, threshold)} | by writer ${row(byWriter, threshold)}`);
    process.exit(0);
  }
  console.log(`settings ${JSON.stringify(settings)}`);
  console.log(
    `threshold (lead recall ≥ ${settings.leadRecall} across folds and across writers): ${threshold}`,
  );
  report(`${settings.folds}-fold cross-validation, tune-a + tune-b`, kfold, threshold);
  report('by writer: trained on tune-a → tune-b, and on tune-b → tune-a', byWriter, threshold);
  console.log('\nthreshold   k-fold: acc  lead-R  spam-P  spam-R  vendor-P  vendor-R | by writer: same');
  for (let t = 0.5; t <= 0.951; t += 0.05) {
    console.log(`  ${t.toFixed(2)}      ${row(kfold, t)} | ${row(byWriter, t)}`);
  }
}

function report(title: string, scored: Scored[], threshold: number) {
  const outcomes = scored.map((s) => ({
    expected: s.example.label,
    got: applyThreshold(s.probabilities, threshold),
  }));
  console.log(`\n${title}, threshold ${threshold}`);
  console.log(formatMetrics(measure(outcomes)).join('\n'));
  const hard = measure(outcomes.filter((_, i) => scored[i]!.example.tags?.includes('hard')));
  console.log(
    `  hard cases: accuracy ${(100 * hard.accuracy).toFixed(1)}% of ${hard.total}, lead recall ${(100 * hard.perClass.lead.recall).toFixed(1)}%`,
  );
  if (args.includes('--verbose')) {
    outcomes.forEach((o, i) => {
      if (o.expected === o.got) return;
      const s = scored[i]!;
      const p = s.probabilities;
      console.log(
        `  miss ${s.example.id}: ${o.expected} → ${o.got} (lead ${p.lead.toFixed(2)} spam ${p.spam.toFixed(2)} vendor ${p.vendor.toFixed(2)}) ${s.example.input.texts.join(' / ').slice(0, 160)}\n      ${s.model.classify(s.example.input, threshold).reasons.join('; ')}`,
      );
    });
  }
}

function row(scored: Scored[], threshold: number): string {
  const m = measure(
    scored.map((s) => ({ expected: s.example.label, got: applyThreshold(s.probabilities, threshold) })),
  );
  const p = (x: number) => (100 * x).toFixed(1).padStart(5);
  return [
    m.accuracy,
    m.perClass.lead.recall,
    m.perClass.spam.precision,
    m.perClass.spam.recall,
    m.perClass.vendor.precision,
    m.perClass.vendor.recall,
  ]
    .map(p)
    .join('  ');
}

function withOverrides(base: TrainingSettings, argv: string[]): TrainingSettings {
  const settings = structuredClone(base) as unknown as Record<string, unknown>;
  argv.forEach((arg, i) => {
    if (arg !== '--set') return;
    const [path, value] = (argv[i + 1] ?? '').split('=') as [string, string];
    const keys = path.split('.');
    let target = settings;
    for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
    const last = keys.at(-1)!;
    if (!(last in target)) throw new Error(`--set: unknown setting ${path}`);
    target[last] = typeof target[last] === 'boolean' ? value === 'true' : Number(value);
  });
  return settings as unknown as TrainingSettings;
}
