import type { GenerateOptions, PrototypeBrief, PrototypeGenerator, PrototypeResult } from '../types.ts';
import { renderApplication } from './application.ts';
import { renderLanding } from './landing.ts';
import { buildModel } from './model.ts';

/** Renders the built-in prototype document for a brief (pure, synchronous). */
export function renderBuiltinPrototype(brief: PrototypeBrief): string {
  const model = buildModel(brief);
  return brief.kind === 'application' ? renderApplication(model) : renderLanding(model);
}

/**
 * The default, offline generator: composes a responsive single-page document from the answers
 * (sections from the features, copy in the lead's language, a theme per style, industry wording).
 * `pacingMs` spaces the progress steps out (0 by default: it is genuinely instant).
 */
export class BuiltinPrototypeGenerator implements PrototypeGenerator {
  readonly name = 'builtin' as const;
  readonly #pacingMs: number;

  constructor(options: { pacingMs?: number } = {}) {
    this.#pacingMs = options.pacingMs ?? 0;
  }

  async generate(brief: PrototypeBrief, options: GenerateOptions): Promise<PrototypeResult> {
    await options.onProgress({ step: 'analysing', percent: 15 });
    await this.#pause(options.signal);
    await options.onProgress({ step: 'generating', percent: 45 });
    const html = renderBuiltinPrototype(brief);
    await this.#pause(options.signal);
    await options.onProgress({ step: 'rendering', percent: 85 });
    await this.#pause(options.signal);
    return { generator: 'builtin', html, demoUrl: null, files: [], externalId: null };
  }

  async #pause(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#pacingMs <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, this.#pacingMs));
    signal?.throwIfAborted();
  }
}
