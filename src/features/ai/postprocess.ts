import { isTraceable } from '../../integrations/llm/offline/phrases.ts';
import { isPlaceholder, truncate } from '../../integrations/llm/offline/text.ts';
import { sliceWhole } from '../../text/slice-whole.ts';

export { isPlaceholder };

import {
  AUDIENCES,
  CONFIDENCE,
  type Confidence,
  INDUSTRIES,
  INITIAL_CHOICES,
  isOneOf,
  type Language,
  PATHS,
  type PlanPath,
  type RefineFields,
  SECTION_KEYS,
  SERVICES,
  SERVICES_BY_CHOICE,
  type SectionKey,
  STYLES,
} from '../../integrations/llm/offline/vocabulary.ts';
import { AI_LIMITS } from './limits.ts';
import { type Plan, planFor } from './plans.ts';
import { isPromptTemplate } from './prompts.ts';

/**
 * The server-side rules of ai-api.md, applied to whatever the model (or the offline engine) wrote:
 * nothing a model answers can break the documented schema.
 */
export interface RecommendResponse {
  summary: string;
  recommendedPath: PlanPath;
  plan: Plan;
  rationale: { summary: string; signals: string[] };
  alternatives: { path: PlanPath; whenItWouldFit: string }[];
  detectedNeeds: string[];
  missingInformation: string[];
  ctaLabel: string;
  ctaUrl: string;
  confidence: Confidence;
  language: Language;
}

export interface RefineResponse {
  summary: string;
  sections: { key: SectionKey; items: string[] }[];
  suggestions: string[];
  language: Language;
  fields: RefineFields;
}

export interface RecommendContext {
  language: Language;
  message: string;
  ctaUrl: string;
  /** Fragments of the visitor's own words, used when the model gives fewer than two signals. */
  backupSignals: () => string[];
}

/** `es`, `es-CO`, `ES_mx` → `es`; anything else (or nothing) → `en`. */
export function normalizeLocale(locale: string | undefined | null): Language {
  return typeof locale === 'string' && /^es(?:$|[-_])/i.test(locale.trim()) ? 'es' : 'en';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u200b-\u200f\u2028\u2029\ufeff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f\u200b-\u200f\u2028\u2029\ufeff]+/g;

/**
 * A model string made safe: well-formed text only (a lone surrogate, which a model can write as a
 * `\ud800` escape, becomes U+FFFD; markup removed), one line, trimmed, cut to `max`; or null for
 * placeholder text, including the prompt's own example values copied back ("one sentence").
 */
export function cleanText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // The cut bounds the work on hostile input before the regular expressions run.
  // Each rewrite runs only on text that needs it (most strings, the offline engine's phrases, need none).
  let text = sliceWhole(value, max * 4 + 1000).toWellFormed();
  if (text.includes('<'))
    text = text.replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ').replace(/<\/?[a-z][^>]*>/gi, ' ');
  if (CONTROL.test(text)) text = text.replace(CONTROLS, ' ');
  if (/\s\s|[^\S ]/.test(text)) text = text.replace(/\s+/g, ' ');
  text = text.trim();
  if (text === '' || isPlaceholder(text) || isPromptTemplate(text)) return null;
  return truncate(text, max);
}

/** A list of model strings: non-strings, placeholders and duplicates dropped, each cut, at most `maxItems`. */
export function cleanList(value: unknown, maxItems: number, maxLength: number): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of value.slice(0, 100)) {
    const text = cleanText(item, maxLength);
    if (text === null) continue;
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(text);
    if (out.length >= maxItems) break;
  }
  return out;
}

/** The path a model wrote, tolerating case and spacing ("technical_review", "BUILD"). */
export function parsePath(value: unknown): PlanPath | null {
  if (typeof value !== 'string') return null;
  const key = value.toLowerCase().replace(/[^a-z]/g, '');
  return PATHS.find((p) => p.toLowerCase().replace(/[^a-z]/g, '') === key) ?? null;
}

const CTA_LABEL: Record<Language, string> = {
  en: 'Request a Technical Review',
  es: 'Solicitar una Technical Review',
};

const QUOTE_MAX = 120;

/**
 * The two signals of a message with almost nothing usable in it ("?", "N/A. TBD."): its own words,
 * quoted in two halves, or whole twice (once labelled) when it is one word. Signals are traceable to
 * the visitor's words (ai-api.md): a statement about the message ("few details", "nothing named
 * yet") is not a signal, whatever it quotes.
 */
export function weakSignals(message: string, language: Language): [string, string] {
  const quote = truncate(message.replace(/\s+/g, ' ').trim(), QUOTE_MAX);
  const words = quote.split(' ');
  if (words.length >= 2) {
    const half = Math.ceil(words.length / 2);
    return [`“${words.slice(0, half).join(' ')}”`, `“${words.slice(half).join(' ')}”`];
  }
  return [`${language === 'es' ? 'Mensaje' : 'Message'}: “${quote}”`, `“${quote}”`];
}

const RATIONALE_DEFAULT: Record<Language, string> = {
  en: 'This path matches what you described.',
  es: 'Esta opción corresponde a lo que describió.',
};

/** A model's recommendation made to follow every rule; null when it names no valid path (→ fallback). */
export function postProcessRecommend(
  raw: Record<string, unknown>,
  ctx: RecommendContext,
): RecommendResponse | null {
  const path = parsePath(raw.recommendedPath);
  if (path === null) return null;
  const rationale = isRecord(raw.rationale) ? raw.rationale : {};

  // Every signal is traceable to the visitor's words (ai-api.md): a model's signal that neither quotes
  // the message nor shares most of its words with it is dropped.
  const signals = cleanList(rationale.signals, AI_LIMITS.signalsMax, AI_LIMITS.signalMax).filter((s) =>
    isTraceable(s, ctx.message),
  );
  // Nothing to quote, from the model nor from the visitor: the signals quote the message as it is,
  // and the answer is low confidence whatever the model claimed (ai-api.md: weak signals).
  let nothingToQuote = false;
  if (signals.length < AI_LIMITS.signalsMin) {
    // The visitor's own fragments first; a message with fewer than two usable ones ("?", "N/A. TBD.")
    // is itself the evidence, quoted, so the 2–6 rule holds whatever was written.
    const fragments = cleanList(ctx.backupSignals(), AI_LIMITS.signalsMax, AI_LIMITS.signalMax);
    nothingToQuote = signals.length === 0 && fragments.length === 0;
    for (const backup of [...fragments, ...weakSignals(ctx.message, ctx.language)]) {
      if (signals.length >= AI_LIMITS.signalsMin) break;
      if (!signals.some((s) => s.toLowerCase() === backup.toLowerCase())) signals.push(backup);
    }
  }

  const alternatives: RecommendResponse['alternatives'] = [];
  for (const entry of Array.isArray(raw.alternatives) ? raw.alternatives.slice(0, 20) : []) {
    if (!isRecord(entry)) continue;
    const altPath = parsePath(entry.path);
    const when = cleanText(entry.whenItWouldFit, AI_LIMITS.shortTextMax);
    if (altPath === null || altPath === path || when === null) continue;
    if (alternatives.some((a) => a.path === altPath)) continue;
    alternatives.push({ path: altPath, whenItWouldFit: when });
    if (alternatives.length >= AI_LIMITS.alternativesMax) break;
  }

  // "low" is defined as Technical Review or weak signals; a model cannot claim more for either.
  const confidence: Confidence =
    path === 'Technical Review' || nothingToQuote
      ? 'low'
      : isOneOf(CONFIDENCE, raw.confidence)
        ? raw.confidence
        : 'medium';

  return {
    summary: cleanText(raw.summary, AI_LIMITS.summaryMax) ?? restate(ctx.message),
    recommendedPath: path,
    plan: planFor(path, ctx.language),
    rationale: {
      summary: cleanText(rationale.summary, AI_LIMITS.rationaleSummaryMax) ?? RATIONALE_DEFAULT[ctx.language],
      signals,
    },
    alternatives,
    detectedNeeds: cleanList(raw.detectedNeeds, AI_LIMITS.needsMax, AI_LIMITS.shortTextMax),
    missingInformation: cleanList(raw.missingInformation, AI_LIMITS.needsMax, AI_LIMITS.shortTextMax),
    ctaLabel: CTA_LABEL[ctx.language],
    ctaUrl: ctx.ctaUrl,
    confidence,
    language: ctx.language,
  };
}

const GENERIC_MISSING: Record<Language, string[]> = {
  en: ['main goal', 'target audience', 'key features', 'timeline', 'budget range'],
  es: ['objetivo principal', 'público objetivo', 'funcionalidades clave', 'plazos', 'rango de presupuesto'],
};

const FALLBACK_RATIONALE: Record<Language, string> = {
  en: 'We could not analyse the request automatically, so a Technical Review is the safest first step: an engineer will look at it with you.',
  es: 'No pudimos analizar la solicitud automáticamente; una Technical Review es el primer paso más seguro: un ingeniero la revisará con usted.',
};

/** Fallback 1 of ai-api.md: the model's output could not be parsed. */
export function recommendFallback(
  ctx: Pick<RecommendContext, 'language' | 'message' | 'ctaUrl'>,
): RecommendResponse {
  return {
    summary: restate(ctx.message),
    recommendedPath: 'Technical Review',
    plan: planFor('Technical Review', ctx.language),
    rationale: { summary: FALLBACK_RATIONALE[ctx.language], signals: [] },
    alternatives: [],
    detectedNeeds: [],
    missingInformation: [...GENERIC_MISSING[ctx.language]],
    ctaLabel: CTA_LABEL[ctx.language],
    ctaUrl: ctx.ctaUrl,
    confidence: 'low',
    language: ctx.language,
  };
}

/** The visitor's message as a one-line summary (facts from the visitor only). */
function restate(message: string): string {
  return truncate(message.replace(/\s+/g, ' ').trim(), AI_LIMITS.summaryMax);
}

/** A model's refinement made to follow every rule; null when it is not the refine shape at all (→ fallback). */
export function postProcessRefine(
  raw: Record<string, unknown>,
  message: string,
  language: Language,
): RefineResponse | null {
  if (!('sections' in raw) && !('fields' in raw) && !('summary' in raw)) return null;
  const byKey = new Map<SectionKey, string[]>();
  const add = (keyValue: unknown, items: unknown) => {
    const key = typeof keyValue === 'string' ? keyValue.trim().toLowerCase() : '';
    if (!isOneOf(SECTION_KEYS, key)) return;
    const list = Array.isArray(items) ? items : typeof items === 'string' ? [items] : [];
    byKey.set(key, [...(byKey.get(key) ?? []), ...list]);
  };
  if (Array.isArray(raw.sections)) {
    for (const section of raw.sections.slice(0, 50)) if (isRecord(section)) add(section.key, section.items);
  } else if (isRecord(raw.sections)) {
    for (const [key, items] of Object.entries(raw.sections).slice(0, 50)) add(key, items);
  }
  const sections = SECTION_KEYS.flatMap((key) => {
    const items = cleanList(byKey.get(key), AI_LIMITS.sectionItemsMax, AI_LIMITS.sectionItemMax);
    return items.length > 0 ? [{ key, items }] : [];
  });
  return {
    summary: cleanText(raw.summary, AI_LIMITS.refineSummaryMax) ?? refineSummary(message),
    sections,
    suggestions: cleanList(raw.suggestions, AI_LIMITS.suggestionsMax, AI_LIMITS.suggestionMax),
    language,
    fields: cleanFields(raw.fields),
  };
}

/** Fallback 2 of ai-api.md: the original message, nothing else, every field null. */
export function refineFallback(message: string, language: Language): RefineResponse {
  return { summary: refineSummary(message), sections: [], suggestions: [], language, fields: emptyFields() };
}

function refineSummary(message: string): string {
  return truncate(message.trim(), AI_LIMITS.refineSummaryMax);
}

export function emptyFields(): RefineFields {
  return { initialChoice: null, service: null, industry: null, audience: null, style: null };
}

/** Enumeration check on every key, then the service safety net. */
export function cleanFields(value: unknown): RefineFields {
  const raw = isRecord(value) ? value : {};
  const fields: RefineFields = {
    initialChoice: isOneOf(INITIAL_CHOICES, raw.initialChoice) ? raw.initialChoice : null,
    service: isOneOf(SERVICES, raw.service) ? raw.service : null,
    industry: isOneOf(INDUSTRIES, raw.industry) ? raw.industry : null,
    audience: isOneOf(AUDIENCES, raw.audience) ? raw.audience : null,
    style: isOneOf(STYLES, raw.style) ? raw.style : null,
  };
  return applySafetyNet(fields);
}

/** A `service` that contradicts the chosen `initialChoice` (SERVICES_BY_CHOICE) becomes null. */
export function applySafetyNet(fields: RefineFields): RefineFields {
  if (
    fields.initialChoice &&
    fields.service &&
    !SERVICES_BY_CHOICE[fields.initialChoice].includes(fields.service)
  ) {
    return { ...fields, service: null };
  }
  return fields;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
