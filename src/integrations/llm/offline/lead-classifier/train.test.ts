import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readClassifySet, TUNING_SETS } from '../../../../../eval/classify/sets.ts';
import { MODEL_PATH } from './load-model.ts';
import { chooseThreshold, type Example, type Scored, serializeModel, train } from './train.ts';

const examples: Example[] = TUNING_SETS.flatMap((file) =>
  readClassifySet(file).map((item) => ({
    id: item.id,
    label: item.label,
    input: item.submission,
    writer: file,
  })),
);

describe('the lead classifier trainer', () => {
  it('reproduces the committed weights byte for byte (run `npm run train:classifier` after a change)', () => {
    expect(serializeModel(train(examples)) === readFileSync(MODEL_PATH, 'utf8')).toBe(true);
  }, 180_000);

  it('chooses the smallest threshold that keeps the lead recall', () => {
    const lead = (spam: number): Scored =>
      ({ example: { label: 'lead' }, probabilities: { lead: 1 - spam, spam, vendor: 0 } }) as Scored;
    const spam = (p: number): Scored =>
      ({ example: { label: 'spam' }, probabilities: { lead: 1 - p, spam: p, vendor: 0 } }) as Scored;
    const leads = [...Array.from({ length: 18 }, () => lead(0.1)), lead(0.72), lead(0.9)];
    // 20 leads: keeping 95% allows one lost (the 0.9), 100% needs a threshold above 0.9.
    expect(chooseThreshold([...leads, spam(0.95)], 0.95)).toBe(0.73);
    expect(chooseThreshold([...leads, spam(0.95)], 1)).toBe(0.91);
    // Never below an even chance, even when every lead is clear.
    expect(chooseThreshold([lead(0.1), spam(0.3)], 1)).toBe(0.5);
  });
});
