/**
 * `npm run eval -- classify --export-corrections FILE` writes the submissions an admin corrected as
 * labelled items (export-corrections.ts), from the database DATABASE_URL names.
 *
 * `npm run eval -- classify [FILES…] [--verbose] [--live [--concurrency N]]`: scores lead/spam/vendor
 * classification on labelled sets (by default tune-a, tune-b and the frozen holdout: while tuning,
 * name the tuning files). Prints accuracy, precision and recall per class, the confusion matrix and
 * every miss with its reasons. The built-in classifier by default, with its latency per submission;
 * `--live` asks the AI_BASE_URL model through the prompt and parser the routes use, and counts the
 * model's failures apart from its answers.
 */
import { existsSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { askModel, classifySubmission } from '../../src/integrations/llm/classification.ts';
import type { LlmClient } from '../../src/integrations/llm/llm-client.ts';
import {
  CLASSIFIER_THRESHOLD,
  type ClassifierResult,
  classifyLeadOffline,
} from '../../src/integrations/llm/offline/classifier.ts';
import { OpenAiCompatibleClient } from '../../src/integrations/llm/openai-compatible-client.ts';
import { exportCorrections } from './export-corrections.ts';
import { formatMetrics, measure, type Outcome } from './metrics.ts';
import {
  type ClassifyItem,
  DEFAULT_SETS,
  readClassifySet,
  resolveSet,
  setName,
  TUNING_SETS,
} from './sets.ts';

interface Scored extends Outcome {
  item: ClassifyItem;
  reasons: string[];
  score: number | null;
}

export async function scoreClassification(args: string[], print: (line: string) => void = console.log) {
  const exportAt = args.indexOf('--export-corrections');
  if (exportAt >= 0) return exportFromConfiguredDatabase(args[exportAt + 1], print);
  const verbose = args.includes('--verbose');
  const live = args.includes('--live');
  const concurrencyArg = args.indexOf('--concurrency');
  const concurrency = concurrencyArg >= 0 ? Math.max(1, Number(args[concurrencyArg + 1]) || 1) : 4;
  const files = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--concurrency');
  const sets = files.length > 0 ? files : DEFAULT_SETS;

  let llm: LlmClient | null = null;
  if (live) {
    if (existsSync('.env')) process.loadEnvFile('.env');
    const config = loadConfig(process.env);
    if (!config.ai)
      throw new Error('--live needs AI_BASE_URL (and AI_MODEL, AI_API_KEY as the service uses them)');
    llm = new OpenAiCompatibleClient(config.ai);
  }

  const all: Scored[] = [];
  for (const file of sets) {
    const items = readClassifySet(file);
    print(
      `\n${setName(file)} (${items.length} submissions, ${llm ? `model ${llm.model}` : `built-in classifier, threshold ${CLASSIFIER_THRESHOLD}`})`,
    );
    if (!llm && TUNING_SETS.some((set) => resolveSet(set) === resolveSet(file))) {
      print('  (the built-in classifier learnt from this set: in-sample figures, not an estimate;');
      print('   its cross-validated figures: npm run train:classifier -- --report)');
    }
    const scored = llm ? await scoreLive(llm, items, concurrency, print) : scoreBuiltin(items, print);
    report(scored, verbose, print);
    all.push(...scored);
  }
  if (sets.length > 1) {
    print(`\nall ${sets.length} sets (${all.length} submissions)`);
    for (const line of formatMetrics(measure(all))) print(line);
  }
}

async function exportFromConfiguredDatabase(file: string | undefined, print: (line: string) => void) {
  if (!file || file.startsWith('--')) throw new Error('--export-corrections needs a FILE to write');
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);
  const database = openDatabase(config.databaseUrl);
  try {
    await exportCorrections(database.db, file, print);
  } finally {
    await database.close();
  }
}

/** Timed passes over a set: the raw figures include the machine's preemptions, the best of each item does not. */
const TIMED_PASSES = 5;

function scoreBuiltin(items: ClassifyItem[], print: (line: string) => void): Scored[] {
  for (const item of items) classifyLeadOffline(item.submission); // warm-up: compile before timing
  const all: number[] = [];
  const best = items.map(() => Number.POSITIVE_INFINITY);
  let scored: Scored[] = [];
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    scored = items.map((item, i) => {
      const started = performance.now();
      const result = classifyLeadOffline(item.submission);
      const elapsed = performance.now() - started;
      all.push(elapsed);
      best[i] = Math.min(best[i]!, elapsed);
      return toScored(item, result);
    });
  }
  const quantiles = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
    return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
  };
  print(`  latency per submission: ${quantiles(all)} (${all.length} calls)`);
  print(`    each submission's best of ${TIMED_PASSES}: ${quantiles(best)}`);
  return scored;
}

function toScored(item: ClassifyItem, result: ClassifierResult): Scored {
  return {
    item,
    expected: item.label,
    got: result.classification,
    reasons: result.reasons,
    score: result.score,
  };
}

async function scoreLive(
  llm: LlmClient,
  items: ClassifyItem[],
  concurrency: number,
  print: (line: string) => void,
): Promise<Scored[]> {
  const answers: (Scored | null)[] = new Array(items.length).fill(null);
  const failures: { item: ClassifyItem; failure: string; detail: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i]!;
      const verdict = await askModel(llm, { ...item.submission, language: item.language });
      if (verdict.ok) {
        answers[i] = {
          item,
          expected: item.label,
          got: verdict.classification,
          reasons: [verdict.reason],
          score: null,
        };
      } else {
        failures.push({ item, failure: verdict.failure, detail: verdict.detail });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const answered = answers.filter((a): a is Scored => a !== null);
  print(`  model answers: ${answered.length} of ${items.length}; model failures: ${failures.length}`);
  for (const f of failures.sort((a, b) => (a.item.id < b.item.id ? -1 : 1))) {
    print(`  failure ${f.item.id} (${f.failure}): ${f.detail.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  if (failures.length > 0) {
    // What the routes would have stored: the built-in classifier decides where the model failed.
    const silent = pino({ level: 'silent' });
    const routes: Outcome[] = [];
    for (const [i, item] of items.entries()) {
      const got =
        answers[i]?.got ??
        (await classifySubmission(null, { ...item.submission, language: item.language }, silent))
          .classification;
      routes.push({ expected: item.label, got });
    }
    print('  as the routes would decide (the built-in classifier where the model failed):');
    for (const line of formatMetrics(measure(routes))) print(`  ${line}`);
    print('  the model alone, on its answers:');
  }
  return answered;
}

function report(scored: Scored[], verbose: boolean, print: (line: string) => void) {
  for (const line of formatMetrics(measure(scored))) print(line);
  const slices: [string, (i: ClassifyItem) => boolean][] = [
    ['hard', (i) => i.tags.includes('hard')],
    ['en', (i) => i.language === 'en'],
    ['es', (i) => i.language === 'es'],
  ];
  print(
    `  by slice: ${slices
      .map(([name, test]) => {
        const part = scored.filter((s) => test(s.item));
        return `${name} ${part.filter((s) => s.expected === s.got).length}/${part.length}`;
      })
      .join(', ')}`,
  );
  const misses = scored.filter((s) => s.expected !== s.got);
  if (misses.length) print(`  misses (${misses.length}):`);
  for (const s of misses) {
    const score = s.score === null ? '' : ` ${s.score.toFixed(2)}`;
    print(
      `  ${s.item.id} [${s.item.tags.join(', ')}]: ${s.expected} → ${s.got}${score}: ${s.reasons.join('; ')}`,
    );
    if (verbose) print(`      ${describe(s.item)}`);
  }
}

function describe(item: ClassifyItem): string {
  const s = item.submission;
  const who = [s.name, s.email, s.company, s.position].filter(Boolean).join(', ');
  return `${who} — ${s.texts.join(' / ').replace(/\s+/g, ' ').slice(0, 300)}`;
}
