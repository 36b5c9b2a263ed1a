import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { LlmClient } from '../llm/llm-client.ts';
import type { GenerateOptions, PrototypeBrief, PrototypeGenerator, PrototypeResult } from './types.ts';

export * from './types.ts';

/**
 * Chooses the generator once from config (PROTOTYPE_GENERATOR). A choice whose service is not
 * configured (llm without AI_BASE_URL, v0 without V0_API_KEY) falls back to the built-in generator
 * with a warning at start-up rather than failing every generation. The LLM and v0 generators (and
 * their HTML parser and SDK) are loaded only when chosen, the built-in one on its first use.
 */
export async function createPrototypeGenerator(
  config: Config,
  llm: LlmClient | null,
  logger: Logger,
): Promise<PrototypeGenerator> {
  const wanted = config.prototypes.generator;
  if (wanted === 'v0') {
    const { apiKey, apiUrl } = config.prototypes.v0;
    if (apiKey) {
      const { V0PrototypeGenerator } = await import('./v0-generator.ts');
      return new V0PrototypeGenerator({ apiKey, apiUrl });
    }
    logger.warn('PROTOTYPE_GENERATOR=v0 but V0_API_KEY is unset: using the built-in prototype generator');
  }
  if (wanted === 'llm') {
    if (llm) {
      const { LlmPrototypeGenerator } = await import('./llm-generator.ts');
      return new LlmPrototypeGenerator(llm, logger.child({ component: 'prototype-llm' }));
    }
    logger.warn('PROTOTYPE_GENERATOR=llm but AI_BASE_URL is unset: using the built-in prototype generator');
  }
  return new LazyBuiltinGenerator();
}

/**
 * The built-in generator, loaded on the first generation: its templates and industry texts (about
 * 4 MB resident) stay out of the memory of an instance that never generates a prototype.
 */
class LazyBuiltinGenerator implements PrototypeGenerator {
  readonly name = 'builtin' as const;
  #generator: Promise<PrototypeGenerator> | null = null;

  async generate(brief: PrototypeBrief, options: GenerateOptions): Promise<PrototypeResult> {
    this.#generator ??= import('./builtin/builtin-generator.ts').then(
      (m) => new m.BuiltinPrototypeGenerator(),
    );
    return (await this.#generator).generate(brief, options);
  }
}
