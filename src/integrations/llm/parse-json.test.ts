import { describe, expect, it } from 'vitest';
import { parseModelJson } from './parse-json.ts';

describe('parseModelJson', () => {
  it.each([
    ['raw', '{"a":1}', { a: 1 }],
    ['fenced', 'Here you go:\n```json\n{"a":2}\n```\nThanks', { a: 2 }],
    ['fenced without language', '```\n{"a":3}\n```', { a: 3 }],
    ['embedded in prose', 'Sure! {"a":{"b":"}"}} hope that helps', { a: { b: '}' } }],
    ['second object when the first is broken', '{oops} then {"a":4}', { a: 4 }],
  ])('parses %s JSON', (_label, text, expected) => {
    expect(parseModelJson(text)).toEqual(expected);
  });

  it.each([
    ['garbage', 'no json here'],
    ['an array', '[1,2]'],
    ['a string', '"x"'],
    ['unbalanced', '{"a":1'],
  ])('returns null for %s', (_label, text) => {
    expect(parseModelJson(text)).toBeNull();
  });
});
