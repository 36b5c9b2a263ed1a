/**
 * `node bench/offline-engine.ts [iterations]`: µs per call of the built-in offline engine, in
 * process, over every message of the evaluation sets (recommend-plan through the service with its
 * post-processing, the engine alone, and refine). Profile with `node --cpu-prof bench/offline-engine.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { recommendPlan, refineMessage } from '../src/features/ai/service.ts';
import { offlineRecommend, offlineRefine } from '../src/integrations/llm/offline/engine.ts';
import type { SearchIndex } from '../src/search/search-index.ts';

const dir = join(import.meta.dirname, '..', 'eval');
const messages: { message: string; locale: string }[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { cases: never[] }).cases);
const ctx = {
  llm: null,
  search: { search: async () => [] } satisfies SearchIndex,
  wizardUrl: 'https://example.com/wizard',
  logger: pino({ level: 'silent' }),
};
const iterations = Number(process.argv[2] ?? 20);

async function measure(name: string, fn: (m: { message: string; locale: string }) => unknown) {
  for (const m of messages) await fn(m); // warm-up
  // Best of 5 rounds: the machine is shared, the minimum is the least disturbed figure.
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) for (const m of messages) await fn(m);
    const us = Number(process.hrtime.bigint() - start) / 1000 / (iterations * messages.length);
    best = Math.min(best, us);
  }
  console.log(`${name.padEnd(34)} ${best.toFixed(1)} µs/call (best of 5)`);
}

console.log(`${messages.length} messages × ${iterations}`);
await measure('recommendPlan (service, offline)', (m) => recommendPlan(m, ctx));
await measure('offlineRecommend (engine only)', (m) => offlineRecommend(m.message, 'en'));
await measure('refineMessage (service, offline)', (m) => refineMessage(m, ctx));
await measure('offlineRefine (engine only)', (m) => offlineRefine(m.message, 'en'));
