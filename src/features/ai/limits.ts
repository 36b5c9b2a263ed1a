/** Every limit of ai-api.md, imported by the schemas, the post-processing and the tests. */
export const AI_LIMITS = {
  messageMax: 2000,
  localeMax: 16,
  sourceMax: 64,
  pageUrlMax: 512,
  fieldMax: 120,
  featuresMaxItems: 30,
  featureMax: 120,
  queryMax: 500,
  /** recommend-plan `summary`: "one short sentence" (the spec gives no number; refine's 320 is reused). */
  summaryMax: 320,
  rationaleSummaryMax: 400,
  signalsMin: 2,
  signalsMax: 6,
  signalMax: 240,
  alternativesMax: 2,
  /** `whenItWouldFit`, `detectedNeeds` and `missingInformation` items (the spec says "short"). */
  shortTextMax: 240,
  needsMax: 8,
  refineSummaryMax: 320,
  suggestionsMax: 5,
  suggestionMax: 160,
  sectionItemsMax: 10,
  sectionItemMax: 280,
  searchTextMax: 800,
  /** Results of `GET /api/ai/search-test` and search chunks given to the model as context. */
  searchResults: 5,
  contextChunks: 3,
  contextChunkChars: 600,
} as const;

/**
 * Per-client-IP limits of the AI routes (not in ai-api.md: an addition, answered 429 `rate_limited`
 * with `Retry-After`). recommend-plan and refine each call the model: `AI_RATE_LIMIT` (default
 * `modelCallsDefault`) per window; search-test only reads the index: `searchTestFactor` times that.
 */
export const AI_RATE = {
  windowMs: 10 * 60_000,
  modelCallsDefault: 30,
  searchTestFactor: 4,
} as const;
