import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_MODEL_FILE, trainedModelText } from '../../../../eval/engine-training.ts';
import { AI_TUNING_SETS, messagesOf, readAiSet } from '../../../../eval/sets.ts';
import { engineModel } from './engine.ts';
import { textFeatures, textPartOn } from './features.ts';
import { logits, softmax, trainSoftmax } from './linear.ts';
import { namedInputs, pathInputs, pathProbabilities, readMessage } from './model.ts';
import { locatePhrase, tagTokens } from './tagger.ts';
import { fold } from './text.ts';
import { indexPart } from './trained-classifier.ts';

describe('the committed model', () => {
  it('is what npm run train:engine makes from the tuning sets, byte for byte', () => {
    expect(trainedModelText()).toBe(readFileSync(ENGINE_MODEL_FILE, 'utf8'));
  }, 300_000);
});

describe('logistic regression', () => {
  const rows = [
    { idx: [0], val: [1] },
    { idx: [0, 2], val: [1, 1] },
    { idx: [1], val: [1] },
    { idx: [1, 2], val: [1, 1] },
  ];
  const labels = [0, 0, 1, 1];

  it('learns a separable problem, the same weights on every run', () => {
    const a = trainSoftmax(rows, labels, 2, 3, { l2: 1e-3, iterations: 100 });
    const b = trainSoftmax(rows, labels, 2, 3, { l2: 1e-3, iterations: 100 });
    expect(Array.from(a.w)).toEqual(Array.from(b.w));
    for (const [i, row] of rows.entries()) {
      const p = softmax(logits(a, row));
      expect(p[labels[i]!]!).toBeGreaterThan(0.8);
    }
  });

  it('shares a class-tied feature across classes', () => {
    // Feature j of class c is 1 when "the lexicon names class c": one weight, learnt from both classes.
    const tied = (c: number) => Float64Array.from([c === 0 ? 1 : 0, c === 1 ? 1 : 0]);
    const tiedRows = labels.map((y) => ({ idx: [2], val: [1], tied: tied(y) }));
    const model = trainSoftmax(tiedRows, labels, 2, 3, { l2: 1e-3, iterations: 100 }, 1);
    expect(model.t[0]!).toBeGreaterThan(1);
    // A row with no other evidence follows its tied feature.
    expect(softmax(logits(model, { idx: [], val: [], tied: tied(1) }))[1]!).toBeGreaterThan(0.8);
  });
});

describe('section tagger', () => {
  it('splits words into clauses and sentences, and finds a gold phrase by its words', () => {
    const message = 'Somos una ONG. Queremos una web nueva, con donaciones y blog';
    const tokens = tagTokens(message, fold(message));
    expect(tokens.map((t) => t.sentence)).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(tokens[7]!.clause).toBe(2);
    expect(locatePhrase(tokens, 'donaciones')).toEqual([8, 8]);
    expect(locatePhrase(tokens, 'una web nueva')).toEqual([4, 6]);
    expect(locatePhrase(tokens, 'tienda online')).toBeNull();
  });
});

describe("a message read for the model's feature space", () => {
  const model = engineModel();
  const messages = AI_TUNING_SETS.flatMap((name) => messagesOf(readAiSet(name))).map((m) => m.message);
  const samples = [...messages, 'Hola hola HOLA, ¿qué tal? tienda tienda online online', '', '!!!'];

  it('is, to the last bit, the names read and then looked up (what training reads)', () => {
    for (const message of samples) {
      const folded = fold(message);
      expect(textPartOn(model.space, folded), message).toEqual(
        indexPart(model.space, textFeatures(message, folded)),
      );
    }
  });

  it('is refused by training and by a model with another space', () => {
    const reading = readMessage('We need an online shop for our bakery.', model.space);
    const inputs = pathInputs(reading, {}, reading.wordCount);
    expect(() => namedInputs(inputs)).toThrow(/by name/);
    const other = new Map(model.space);
    expect(() => pathProbabilities({ ...model, space: other }, inputs)).toThrow(/another feature space/);
  });
});
