/**
 * The offline engine and the offline lead classifier, each loaded on its first use: their lexicons
 * and compiled cue patterns (about 10 MB resident) stay out of the memory of an instance that never
 * answers an AI route or classifies a submission without a model. The first use waits for the import
 * (tens of milliseconds, once).
 */
let engine: Promise<typeof import('./engine.ts')> | null = null;
let classifier: Promise<typeof import('./classifier.ts')> | null = null;

export function offlineEngine(): Promise<typeof import('./engine.ts')> {
  engine ??= import('./engine.ts');
  return engine;
}

export function offlineClassifier(): Promise<typeof import('./classifier.ts')> {
  classifier ??= import('./classifier.ts');
  return classifier;
}
