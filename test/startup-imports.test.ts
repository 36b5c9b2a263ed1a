import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from './support/process.ts';

/**
 * What a start-up loads: the heavy code only some requests need is imported on their first use, so it
 * stays out of every instance's start-up time and memory (README, Benchmarks). A static import of one
 * of these, anywhere on the start-up path, fails here.
 */
const LOADED_ON_FIRST_USE = [
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

const folder = mkdtempSync(join(tmpdir(), 'startup-imports-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('start-up (SQLite, no outside service configured)', () => {
  it('answers /health without loading what only some requests need', async () => {
    const server = await spawnServer({ DATABASE_URL: `sqlite:${join(folder, 'app.db')}` }, 15_000, {
      nodeArgs: ['--import', './test/support/record-imports.ts'],
    });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const loaded = server.output.filter((line) => line.startsWith('resolved '));
    // The recording works: the database layer is loaded at start-up.
    expect(loaded.some((line) => line.includes('node_modules/kysely/'))).toBe(true);
    expect(LOADED_ON_FIRST_USE.filter((part) => loaded.some((line) => line.includes(part)))).toEqual([]);
  });
});
