/**
 * `npx node bench/offline-engine.ts [rounds]`: the built-in offline engine's time per call, in
 * process, over every message of the tuning sets (eval/sets.ts, the holdout left out): recommend-plan
 * through the service with its post-processing, the engine alone, and refine. Each call is timed on
 * its own; the figures are the median (p50) and the 99th percentile over all calls of all rounds,
 * after one warm-up round, in wall time and in the process's CPU time (which leaves out the time the
 * process waited for a core on a busy machine; garbage collection counts in both). Profile with `node --cpu-prof bench/offline-engine.ts`.
 */
import pino from 'pino';
import { AI_TUNING_SETS, messagesOf, readAiSet } from '../eval/sets.ts';
import { recommendPlan, refineMessage } from '../src/features/ai/service.ts';
import { engineModel, offlineRecommend, offlineRefine } from '../src/integrations/llm/offline/engine.ts';
import type { SearchIndex } from '../src/search/search-index.ts';

const messages = AI_TUNING_SETS.flatMap((name) => messagesOf(readAiSet(name)));
const ctx = {
  llm: null,
  search: { search: async () => [] } satisfies SearchIndex,
  wizardUrl: 'https://example.com/wizard',
  logger: pino({ level: 'silent' }),
};
const rounds = Number(process.argv[2] ?? 5);
const language = (locale: string) => (locale === 'es' ? 'es' : 'en');

async function measure(name: string, fn: (m: { message: string; locale: string }) => unknown) {
  for (const m of messages) await fn(m); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const m of messages) {
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      await fn(m);
      wall.push(Number(process.hrtime.bigint() - start) / 1000);
      const used = process.cpuUsage(cpuStart);
      cpu.push(used.user + used.system);
    }
  }
  const at = (values: number[], q: number) =>
    values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  const us = (x: number) => `${x.toFixed(0).padStart(5)} µs`;
  console.log(
    `${name.padEnd(34)} wall p50 ${us(at(wall, 0.5))} p99 ${us(at(wall, 0.99))}   CPU p50 ${us(at(cpu, 0.5))} p99 ${us(at(cpu, 0.99))}`,
  );
}

engineModel(); // the model is read once, on first use: not part of a call
console.log(`${messages.length} messages × ${rounds} rounds`);
await measure('recommendPlan (service, offline)', (m) => recommendPlan(m, ctx));
await measure('offlineRecommend (engine only)', (m) => offlineRecommend(m.message, language(m.locale)));
await measure('refineMessage (service, offline)', (m) => refineMessage(m, ctx));
await measure('offlineRefine (engine only)', (m) => offlineRefine(m.message, language(m.locale)));
