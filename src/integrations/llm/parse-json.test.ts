import { describe, expect, it } from 'vitest';
import { parseModelJson } from './parse-json.ts';

describe('parseModelJson', () => {
  it.each([
    ['raw', '{"a":1}', { a: 1 }],
    ['fenced', 'Here you go:\n```json\n{"a":2}\n```\nThanks', { a: 2 }],
    ['fenced without language', '```\n{"a":3}\n```', { a: 3 }],
    ['embedded in prose', 'Sure! {"a":{"b":"}"}} hope that helps', { a: { b: '}' } }],
    ['second object when the first is broken', '{oops} then {"a":4}', { a: 4 }],
    ['after a stray brace in the prose', 'Use the form {path. Answer: {"a":5}', { a: 5 }],
    [
      'after a reasoning block with an open quote and brace',
      '<think>the user wrote "hi {</think>\n{"a":6}',
      { a: 6 },
    ],
    ['inside an outer span that is not JSON', '{Answer: {"a":7}}', { a: 7 }],
    ['the outermost object first', 'x {"a":{"b":8}} y', { a: { b: 8 } }],
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

  it('bounds the search on hostile text and still finds an object near the start', () => {
    const started = performance.now();
    expect(parseModelJson('{'.repeat(200_000))).toBeNull();
    expect(parseModelJson(`${'{"'.repeat(100_000)}`)).toBeNull();
    expect(parseModelJson(`x {"a":9} ${'{'.repeat(1_000_000)}`)).toEqual({ a: 9 });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
