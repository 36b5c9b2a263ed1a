import type { PrototypeKind } from '../../wizard.ts';

/**
 * One interface for every prototype generator (built-in, LLM, v0). A generator turns a lead's wizard
 * answers into either a self-contained HTML document or a hosted demo (v0), and reports its progress
 * through a callback so the caller can store and stream it.
 */

export type { PrototypeKind };
export type PrototypeLanguage = 'en' | 'es';
export type GeneratorName = 'builtin' | 'llm' | 'v0';

/** The lead's answers a prototype is made from (all wizard values optional except the kind). */
export interface PrototypeBrief {
  leadId: string;
  kind: PrototypeKind;
  language: PrototypeLanguage;
  name?: string | null;
  company?: string | null;
  service?: string | null;
  goal?: string | null;
  industry?: string | null;
  features?: string[];
  style?: string | null;
  audience?: string | null;
}

/** The steps every generator reports, in order. */
export const GENERATION_STEPS = ['queued', 'analysing', 'generating', 'rendering', 'complete'] as const;
export type GenerationStep = (typeof GENERATION_STEPS)[number];

export interface ProgressUpdate {
  step: GenerationStep;
  /** 0–100, never decreasing within one attempt. */
  percent: number;
  /** Optional detail (e.g. "v0 version pending"); the user-facing text is localized by the caller. */
  detail?: string;
}

export interface GeneratedFile {
  name: string;
  content: string;
}

export interface PrototypeResult {
  generator: GeneratorName;
  /** A complete HTML document (built-in and LLM generators; v0 when it returned one). */
  html: string | null;
  /** The hosted demo (v0). */
  demoUrl: string | null;
  files: GeneratedFile[];
  /** The outside service's id of what it made (the v0 chat id). */
  externalId: string | null;
  /** Set when the generator fell back to the built-in one (e.g. the model answered garbage). */
  fallbackReason?: string;
}

export interface GenerateOptions {
  onProgress: (update: ProgressUpdate) => void | Promise<void>;
  /** Aborted when the attempt is abandoned (timeout, shutdown, taken over as stale). */
  signal?: AbortSignal;
  /**
   * The generation request the attempt belongs to: `key` is the same for every attempt of one
   * request (its retries and takeovers) and new for the next request (a regeneration); `retry` is
   * true when an earlier attempt of the request ran, so what it asked for may exist already.
   */
  request?: GenerationRequest;
}

export interface GenerationRequest {
  key: string;
  retry: boolean;
}

export interface PrototypeGenerator {
  readonly name: GeneratorName;
  generate(brief: PrototypeBrief, options: GenerateOptions): Promise<PrototypeResult>;
}

/** The generator could not produce a prototype (outside service down, refused, timed out). */
export class PrototypeGenerationError extends Error {
  override name = 'PrototypeGenerationError';
  /** False when retrying cannot help (e.g. the v0 API key is rejected). */
  readonly retryable: boolean;
  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable ?? true;
  }
}
