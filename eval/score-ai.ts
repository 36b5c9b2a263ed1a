/**
 * `npm run eval [-- --verbose] [-- --model] [-- file.json …]`: scores the AI routes' logic on the
 * labelled sets in eval/: recommend-plan path accuracy and refine per-field accuracy (a `null` label
 * must be answered `null`). By default the built-in offline engine; `--model` uses AI_BASE_URL.
 */
import { existsSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { recommendPlan, refineMessage } from '../src/features/ai/service.ts';
import { OpenAiCompatibleClient } from '../src/integrations/llm/openai-compatible-client.ts';
import type { SearchIndex } from '../src/search/search-index.ts';
import { AI_EVAL_SETS, readEvalSet } from './sets.ts';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const useModel = args.includes('--model');
const files = args.filter((a) => !a.startsWith('--'));
const sets = files.length > 0 ? files : AI_EVAL_SETS;

if (useModel && existsSync('.env')) process.loadEnvFile('.env');
const config = useModel ? loadConfig(process.env) : null;
if (useModel && !config?.ai) throw new Error('--model needs AI_BASE_URL');
const ctx = {
  llm: config?.ai ? new OpenAiCompatibleClient(config.ai) : null,
  search: { search: async () => [] } satisfies SearchIndex,
  wizardUrl: 'https://example.com/wizard',
  logger: pino({ level: 'silent' }),
};

const pct = (n: number, d: number) => `${((100 * n) / Math.max(d, 1)).toFixed(1)}%`;
let failedBar = false;

for (const file of sets) {
  const cases = readEvalSet(file);
  let pathOk = 0;
  const fieldOk: Record<string, number> = {};
  let fieldTotal = 0;
  let fieldHits = 0;
  const byTag = new Map<string, [number, number]>();
  for (const c of cases) {
    const recommendation = await recommendPlan({ message: c.message, locale: c.locale }, ctx);
    const refinement = await refineMessage({ message: c.message, locale: c.locale }, ctx);
    const ok = recommendation.recommendedPath === c.path;
    if (ok) pathOk++;
    else if (verbose)
      console.log(
        `  path  ${c.id}: expected ${c.path}, got ${recommendation.recommendedPath} — ${c.message}`,
      );
    for (const tag of [c.locale.slice(0, 2), ...c.tags]) {
      const [hit, total] = byTag.get(tag) ?? [0, 0];
      byTag.set(tag, [hit + (ok ? 1 : 0), total + 1]);
    }
    for (const [key, expected] of Object.entries(c.fields)) {
      const got = refinement.fields[key as keyof typeof refinement.fields];
      fieldTotal++;
      if (got === expected) {
        fieldHits++;
        fieldOk[key] = (fieldOk[key] ?? 0) + 1;
      } else if (verbose) console.log(`  field ${c.id}.${key}: expected ${expected}, got ${got}`);
    }
  }
  const pathAccuracy = pathOk / cases.length;
  const fieldAccuracy = fieldHits / fieldTotal;
  console.log(
    `\n${file} (${cases.length} messages, ${ctx.llm ? `model ${ctx.llm.model}` : 'offline engine'})`,
  );
  console.log(`  path accuracy         ${pct(pathOk, cases.length)} (${pathOk}/${cases.length})`);
  console.log(`  refine field accuracy ${pct(fieldHits, fieldTotal)} (${fieldHits}/${fieldTotal})`);
  console.log(
    `  per field             ${Object.keys(cases[0]?.fields ?? {})
      .map((k) => `${k} ${pct(fieldOk[k] ?? 0, cases.length)}`)
      .join(', ')}`,
  );
  console.log(`  path by tag           ${[...byTag].map(([tag, [h, n]]) => `${tag} ${h}/${n}`).join(', ')}`);
  if (file === 'ai-cases.json' && (pathAccuracy < 0.8 || fieldAccuracy < 0.8)) failedBar = true;
}
if (failedBar) {
  console.log('\nbelow the 80% bar on ai-cases.json');
  process.exitCode = 1;
}
