import type { Logger } from 'pino';
import type { LlmClient } from '../../integrations/llm/llm-client.ts';
import type { offlineRecommend } from '../../integrations/llm/offline/engine.ts';
import { offlineEngine } from '../../integrations/llm/offline/load.ts';
import type { EngineModel } from '../../integrations/llm/offline/model.ts';
import { parseModelJson } from '../../integrations/llm/parse-json.ts';
import type { SearchIndex } from '../../search/search-index.ts';
import { sliceWhole } from '../../text/slice-whole.ts';
import { AI_LIMITS } from './limits.ts';
import {
  normalizeLocale,
  postProcessRecommend,
  postProcessRefine,
  type RecommendResponse,
  type RefineResponse,
  recommendFallback,
  refineFallback,
} from './postprocess.ts';
import { recommendPrompt, refinePrompt } from './prompts.ts';
import { type RecommendFields, visitorMessage } from './schemas.ts';

/** What the AI logic needs; it knows nothing of HTTP (the routes map LlmError to 502). */
export interface AiContext {
  llm: LlmClient | null;
  search: SearchIndex;
  wizardUrl: string;
  logger: Logger;
  /** The offline engine's model; the committed one when absent (the evaluation passes others). */
  offlineModel?: EngineModel;
}

export interface RecommendInput {
  message: string;
  locale?: string | null;
  fields?: RecommendFields | null;
}

/** recommend-plan: the model (or the offline engine), then every server-side rule. Throws LlmError. */
export async function recommendPlan(input: RecommendInput, ctx: AiContext): Promise<RecommendResponse> {
  const message = visitorMessage(input.message);
  const language = normalizeLocale(input.locale);
  const fields = input.fields ?? undefined;
  const facts = fields
    ? Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined))
    : {};
  // Loaded even with a model: its signals back up a model answer that has none.
  const engine = await offlineEngine();
  let offline: ReturnType<typeof offlineRecommend> | null = null;
  const offlineAnswer = () => {
    offline ??= engine.offlineRecommend(message, language, facts, ctx.offlineModel ?? engine.engineModel());
    return offline;
  };
  const post = {
    language,
    message,
    ctaUrl: ctx.wizardUrl,
    backupSignals: () => offlineAnswer().rationale.signals,
  };

  if (!ctx.llm) {
    return postProcessRecommend({ ...offlineAnswer() }, post) ?? recommendFallback(post);
  }
  const context = await ctx.search
    .search(message, { limit: AI_LIMITS.contextChunks })
    .catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'search context unavailable');
      return [];
    });
  const text = await ctx.llm.complete({
    messages: recommendPrompt({ message, language, fields, context }),
    responseFormat: 'json',
    maxTokens: 1200,
    temperature: 0.2,
  });
  const parsed = parseModelJson(text);
  const result = parsed ? postProcessRecommend(parsed, post) : null;
  if (!result)
    ctx.logger.warn({ model: ctx.llm.model }, 'recommend-plan: model output unusable, fallback used');
  return result ?? recommendFallback(post);
}

/** refine: the model (or the offline engine), then every server-side rule. Throws LlmError. */
export async function refineMessage(
  input: { message: string; locale?: string | null },
  ctx: AiContext,
): Promise<RefineResponse> {
  const message = visitorMessage(input.message);
  const language = normalizeLocale(input.locale);
  if (!ctx.llm) {
    const engine = await offlineEngine();
    const raw = engine.offlineRefine(message, language, ctx.offlineModel ?? engine.engineModel());
    return postProcessRefine({ ...raw }, message, language) ?? refineFallback(message, language);
  }
  const text = await ctx.llm.complete({
    messages: refinePrompt({ message, language }),
    responseFormat: 'json',
    maxTokens: 1200,
    temperature: 0.1,
  });
  const parsed = parseModelJson(text);
  const result = parsed ? postProcessRefine(parsed, message, language) : null;
  if (!result) ctx.logger.warn({ model: ctx.llm.model }, 'refine: model output unusable, fallback used');
  return result ?? refineFallback(message, language);
}

export interface SearchTestResponse {
  query: string;
  count: number;
  results: { source: string; text: string; score?: number }[];
}

/** search-test: the top chunks for a query (the query already trimmed and cut). */
export async function searchTest(query: string, search: SearchIndex): Promise<SearchTestResponse> {
  const hits = await search.search(query, { limit: AI_LIMITS.searchResults });
  const results = hits.map((hit) => ({
    source: hit.source,
    text: sliceWhole(hit.text, AI_LIMITS.searchTextMax).toWellFormed(),
    score: hit.score,
  }));
  return { query, count: results.length, results };
}
