/**
 * `npm run eval [-- --verbose] [-- --live] [-- --cv [--folds N]] [-- file.json …]` (or
 * `npx node eval/score-ai.ts …`): scores the AI routes on the labelled sets (eval/sets.ts), with the
 * measures of issue 24 (eval/ai-measures.ts).
 * - default: the built-in offline engine with its committed model, through the routes' own service
 *   and post-processing. With no file named, every set is scored, the frozen holdout included: while
 *   working, name the files.
 * - `--live` (alias `--model`): the model configured by AI_BASE_URL/AI_MODEL (`.env` is read), with
 *   the routes' prompts and post-processing.
 * - `--cv`: k-fold cross-validation of the engine's training on the tuning sets (the holdout is
 *   refused): every answer comes from a model trained without that message's fold.
 */
import { existsSync } from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import type { RecommendResponse, RefineResponse } from '../src/features/ai/postprocess.ts';
import type { RecommendFields } from '../src/features/ai/schemas.ts';
import { type AiContext, recommendPlan, refineMessage } from '../src/features/ai/service.ts';
import type { EngineModel } from '../src/integrations/llm/offline/model.ts';
import { OpenAiCompatibleClient } from '../src/integrations/llm/openai-compatible-client.ts';
import type { SearchIndex } from '../src/search/search-index.ts';
import { type RecommendOutcome, type RefineOutcome, reportRecommend, reportRefine } from './ai-measures.ts';
import { crossValidatedModels } from './cross-validate.ts';
import {
  AI_EVAL_SETS,
  AI_HOLDOUT,
  AI_SPENT_HOLDOUTS,
  AI_TUNING_SETS,
  type AiSet,
  readAiSet,
} from './sets.ts';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const live = args.includes('--live') || args.includes('--model');
const cv = args.includes('--cv');
const foldsAt = args.indexOf('--folds');
const folds = foldsAt >= 0 ? Number(args[foldsAt + 1]) : 5;
const files = args.filter((a, i) => !a.startsWith('--') && !(foldsAt >= 0 && i === foldsAt + 1));
const names = files.length > 0 ? files : cv ? AI_TUNING_SETS : AI_EVAL_SETS;
if (cv && live) throw new Error('--cv trains the offline engine; it cannot be combined with --live');
if (cv && names.some((f) => [AI_HOLDOUT, ...AI_SPENT_HOLDOUTS].some((holdout) => f.endsWith(holdout))))
  throw new Error('a holdout is never trained on');

if (live && existsSync('.env')) process.loadEnvFile('.env');
const config = live ? loadConfig(process.env) : null;
if (live && !config?.ai) throw new Error('--live needs AI_BASE_URL (and AI_MODEL)');

const baseContext: AiContext = {
  llm: config?.ai ? new OpenAiCompatibleClient(config.ai) : null,
  search: { search: async () => [] } satisfies SearchIndex,
  wizardUrl: 'https://example.com/wizard',
  logger: pino({ level: 'silent' }),
};

const sets: AiSet[] = names.map(readAiSet);
const engineFor: (id: string) => EngineModel | undefined = cv
  ? crossValidatedModels(sets, folds)
  : () => undefined;
const method = live
  ? `model ${baseContext.llm?.model}`
  : cv
    ? `offline engine, ${folds}-fold cross-validation (each answer from a model trained without its fold)`
    : 'offline engine';

const contextFor = (id: string): AiContext => {
  const model = engineFor(id);
  return model ? { ...baseContext, offlineModel: model } : baseContext;
};

async function recommend(id: string, message: string, locale: string, fields?: RecommendCase['fields']) {
  return recommendPlan(
    { message, locale, ...(fields ? { fields: fields as RecommendFields } : {}) },
    contextFor(id),
  );
}
type RecommendCase = AiSet['recommend'][number];

for (const set of sets) {
  const recommendOutcomes: RecommendOutcome[] = [];
  for (const item of set.recommend) {
    const answer: RecommendResponse = await recommend(item.id, item.message, item.locale, item.fields);
    recommendOutcomes.push({ item, answer });
  }
  const refineOutcomes: RefineOutcome[] = [];
  for (const item of set.refine) {
    const answer: RefineResponse = await refineMessage(
      { message: item.message, locale: item.locale },
      contextFor(item.id),
    );
    const sameMessage = recommendOutcomes.find((o) => o.item.id === item.id)?.answer;
    refineOutcomes.push({
      item,
      answer,
      recommend: sameMessage ?? (await recommend(item.id, item.message, item.locale)),
    });
  }
  console.log(`\n${set.name} (${method})`);
  for (const line of reportRecommend(recommendOutcomes, verbose)) console.log(line);
  for (const line of reportRefine(refineOutcomes, verbose)) console.log(line);
}
