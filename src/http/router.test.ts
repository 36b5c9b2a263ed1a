import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { StaticPathMemoRouter } from './router.ts';

const routes: [string, string, string][] = [
  ['ALL', '*', 'every-path middleware'],
  ['POST', '*', 'body limit'],
  ['GET', '/health', 'health'],
  ['GET', '/api/leads/lookup', 'lookup'],
  ['GET', '/api/leads/:id', 'lead'],
  ['ALL', '/admin/*', 'admin auth'],
  ['GET', '/admin/api/summary', 'summary'],
  ['POST', '/api/leads', 'create lead'],
];

describe('StaticPathMemoRouter', () => {
  const memo = new StaticPathMemoRouter<string>();
  const trie = new TrieRouter<string>();
  for (const [method, path, handler] of routes) {
    memo.add(method, path, handler);
    trie.add(method, path, handler);
  }
  const requests: [string, string][] = [
    ['GET', '/health'],
    ['GET', '/api/leads/lookup'],
    ['GET', '/api/leads/abc'],
    ['POST', '/api/leads'],
    ['GET', '/api/leads'],
    ['GET', '/admin/api/summary'],
    ['DELETE', '/health'],
    ['GET', '/nowhere'],
    ['GET', '/health/'],
  ];

  it('answers exactly what the trie answers, the first time and when remembered', () => {
    for (let pass = 0; pass < 2; pass++) {
      for (const [method, path] of requests)
        expect(memo.match(method, path)).toEqual(trie.match(method, path));
    }
  });

  it('remembers only registered parameterless paths, and forgets when a route is added', () => {
    const first = memo.match('GET', '/health');
    expect(memo.match('GET', '/health')).toBe(first);
    expect(memo.match('GET', '/api/leads/abc')).not.toBe(memo.match('GET', '/api/leads/abc'));
    expect(memo.match('GET', '/nowhere')).not.toBe(memo.match('GET', '/nowhere'));
    memo.add('GET', '/health', 'second health handler');
    expect(memo.match('GET', '/health')[0].map(([handler]) => handler)).toContain('second health handler');
  });
});
