/**
 * What a start-up loads: the heavy code only some requests need is imported on their first use, so it
 * stays out of every instance's start-up time and memory (README, Benchmarks). A static import of one
 * of these, anywhere on the start-up path, fails test/startup-imports.test.ts (the sources) and
 * scripts/build-server.test.ts (the bundle).
 */
export const LOADED_ON_FIRST_USE = [
  // Packages.
  'node_modules/lighthouse/',
  'node_modules/parse5/',
  'node_modules/cheerio/',
  'node_modules/busboy/',
  'node_modules/file-type/',
  'node_modules/ws/',
  'node_modules/nodemailer/',
  'node_modules/v0-sdk/',
  'node_modules/pg/',
  'node_modules/@ai-sdk/',
  // The offline engine and classifier (lexicons, weights), the SEO analysis, the ticket upload reader.
  'src/integrations/llm/offline/engine.ts',
  'src/integrations/llm/offline/classifier.ts',
  'src/features/seo/analyze.ts',
  'src/features/support/multipart.ts',
];
