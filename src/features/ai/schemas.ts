import { z } from '@hono/zod-openapi';
import {
  AUDIENCES,
  CONFIDENCE,
  INDUSTRIES,
  INITIAL_CHOICES,
  LANGUAGES,
  PATHS,
  SECTION_KEYS,
  SERVICES,
  STYLES,
} from '../../integrations/llm/offline/vocabulary.ts';
import { AI_LIMITS as L } from './limits.ts';

const requiredString = (name: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? `${name} is required and must be a string.` : `${name} must be a string.`,
  });

/**
 * The visitor's message as the routes use it: lone UTF-16 surrogates (which no JSON reader downstream
 * accepts) become U+FFFD, control characters other than tab and line breaks go, and it is trimmed.
 * Answers quote the visitor, so this is what they can quote.
 */
export function visitorMessage(raw: string): string {
  return raw.toWellFormed().replace(CONTROL_CHARACTERS, '').trim();
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** `message`: 1–2000 characters once cleaned and trimmed (`visitorMessage`). */
const message = requiredString('message')
  .refine((value) => visitorMessage(value).length > 0, { error: 'message must not be empty.' })
  .refine((value) => value.trim().length <= L.messageMax, {
    error: `message must be at most ${L.messageMax} characters.`,
  })
  .openapi({
    description: `The visitor's words, 1–${L.messageMax} characters after trimming.`,
    example: 'We need a new website for our dental clinic with online booking.',
  });

const optionalText = (name: string, max: number, description: string, example?: string) =>
  z
    .string({ error: `${name} must be a string.` })
    .max(max, { error: `${name} must be at most ${max} characters.` })
    .nullish()
    .openapi({ description, example });

const locale = optionalText(
  'locale',
  L.localeMax,
  '`en` (default) or `es`; a regional tag such as `es-CO` becomes `es`, anything else `en`.',
  'es-CO',
);

const fieldText = (name: string, example: string) =>
  optionalText(`fields.${name}`, L.fieldMax, `At most ${L.fieldMax} characters.`, example);

export const RecommendFieldsSchema = z
  .object({
    initialChoice: fieldText('initialChoice', 'create'),
    service: fieldText('service', 'build-website'),
    goal: fieldText('goal', 'More appointment bookings'),
    industry: fieldText('industry', 'healthcare'),
    audience: fieldText('audience', 'b2c'),
    style: fieldText('style', 'modernMinimalist'),
    features: z
      .array(
        z
          .string({ error: 'fields.features items must be strings.' })
          .max(L.featureMax, { error: `fields.features items must be at most ${L.featureMax} characters.` }),
        { error: 'fields.features must be an array of strings.' },
      )
      .max(L.featuresMaxItems, { error: `fields.features must have at most ${L.featuresMaxItems} items.` })
      .nullish()
      .openapi({ example: ['Online booking', 'Blog'] }),
  })
  .nullish()
  .openapi({
    description: "The wizard's answers, given to the model as confirmed facts. Every sub-field is optional.",
  });

export type RecommendFields = NonNullable<z.infer<typeof RecommendFieldsSchema>>;

export const RecommendRequestSchema = z
  .object({
    message,
    locale,
    source: optionalText(
      'source',
      L.sourceMax,
      `Free-text metadata, at most ${L.sourceMax} characters.`,
      'home-hero',
    ),
    pageUrl: optionalText(
      'pageUrl',
      L.pageUrlMax,
      `Free-text metadata, at most ${L.pageUrlMax} characters.`,
      '/services',
    ),
    fields: RecommendFieldsSchema,
  })
  .openapi('RecommendRequest');

export const RefineRequestSchema = z.object({ message, locale }).openapi('RefineRequest');

export const SearchQuerySchema = z.object({
  q: z.string().openapi({
    description: `The query; trimmed and cut to ${L.queryMax} characters; empty or blank → 400.`,
    example: 'mvp launch',
  }),
});

const PlanSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    bestFor: z.string(),
    typicalIncludes: z.array(z.string()),
  })
  .openapi('Plan', { description: 'Injected by the server from a fixed table keyed by path and language.' });

export const RecommendResponseSchema = z
  .object({
    summary: z.string().openapi({ description: 'One short sentence restating the request.' }),
    recommendedPath: z.enum(PATHS),
    plan: PlanSchema,
    rationale: z.object({
      summary: z.string().max(L.rationaleSummaryMax),
      signals: z.array(z.string().max(L.signalMax)).max(L.signalsMax).openapi({
        description: "2–6 evidence items from the visitor's words (empty only in the fallback).",
      }),
    }),
    alternatives: z
      .array(z.object({ path: z.enum(PATHS), whenItWouldFit: z.string() }))
      .max(L.alternativesMax),
    detectedNeeds: z.array(z.string()),
    missingInformation: z.array(z.string()),
    ctaLabel: z.string().openapi({ example: 'Request a Technical Review' }),
    ctaUrl: z.string().openapi({ example: 'https://example.com/wizard' }),
    confidence: z.enum(CONFIDENCE),
    language: z.enum(LANGUAGES),
  })
  .openapi('RecommendResponse');

export const RefineResponseSchema = z
  .object({
    summary: z.string().max(L.refineSummaryMax),
    sections: z.array(
      z.object({
        key: z.enum(SECTION_KEYS),
        items: z.array(z.string().max(L.sectionItemMax)).max(L.sectionItemsMax),
      }),
    ),
    suggestions: z.array(z.string().max(L.suggestionMax)).max(L.suggestionsMax),
    language: z.enum(LANGUAGES),
    fields: z.object({
      initialChoice: z.enum(INITIAL_CHOICES).nullable(),
      service: z.enum(SERVICES).nullable(),
      industry: z.enum(INDUSTRIES).nullable(),
      audience: z.enum(AUDIENCES).nullable(),
      style: z.enum(STYLES).nullable(),
    }),
  })
  .openapi('RefineResponse');

export const SearchResponseSchema = z
  .object({
    query: z.string(),
    count: z.number().int(),
    results: z.array(
      z.object({
        source: z.string(),
        text: z.string().max(L.searchTextMax),
        score: z.number().optional(),
      }),
    ),
  })
  .openapi('SearchResponse');

export const AiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum([
        'invalid_request',
        'method_not_allowed',
        'not_found',
        'ai_request_failed',
        'rate_limited',
        'service_unavailable',
        'internal_error',
      ]),
      message: z.string(),
    }),
  })
  .openapi('AiError');
