import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { LlmClient } from '../llm/llm-client.ts';
import { BuiltinPrototypeGenerator } from './builtin/builtin-generator.ts';
import { LlmPrototypeGenerator } from './llm-generator.ts';
import type { PrototypeGenerator } from './types.ts';
import { V0PrototypeGenerator } from './v0-generator.ts';

export * from './types.ts';

/**
 * Chooses the generator once from config (PROTOTYPE_GENERATOR). A choice whose service is not
 * configured (llm without AI_BASE_URL, v0 without V0_API_KEY) falls back to the built-in generator
 * with a warning at start-up rather than failing every generation.
 */
export function createPrototypeGenerator(
  config: Config,
  llm: LlmClient | null,
  logger: Logger,
): PrototypeGenerator {
  const wanted = config.prototypes.generator;
  if (wanted === 'v0') {
    const { apiKey, apiUrl } = config.prototypes.v0;
    if (apiKey) return new V0PrototypeGenerator({ apiKey, apiUrl });
    logger.warn('PROTOTYPE_GENERATOR=v0 but V0_API_KEY is unset: using the built-in prototype generator');
  }
  if (wanted === 'llm') {
    if (llm) return new LlmPrototypeGenerator(llm, logger.child({ component: 'prototype-llm' }));
    logger.warn('PROTOTYPE_GENERATOR=llm but AI_BASE_URL is unset: using the built-in prototype generator');
  }
  return new BuiltinPrototypeGenerator();
}
