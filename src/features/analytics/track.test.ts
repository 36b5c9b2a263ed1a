import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { propertiesProblem } from './schemas.ts';
import { pagePath, parseTrackBody, referrerParts, validateTrack, validateTrackWithSchema } from './track.ts';

const verdict = (fn: () => unknown) => {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, value: error.code };
    throw error;
  }
};

describe('track body rules', () => {
  it('the hot-path validator agrees with the documented zod schema', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('', '  ', 'page_view', '/pricing', 'x'.repeat(L.typeLength + 1), 'a\u0001b'),
      fc.string({ minLength: 2040, maxLength: 2060 }),
    );
    const field = fc.oneof(text, fc.constant(undefined), fc.constant(null), fc.integer());
    const props = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant([1]),
      fc.dictionary(fc.string({ maxLength: 70 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 35 }),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            type: field,
            page: field,
            url: field,
            referrer: field,
            title: field,
            sessionId: field,
            properties: props,
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const fast = verdict(() => validateTrack(body as Record<string, unknown>));
          const schema = verdict(() => validateTrackWithSchema(body));
          expect(fast.ok).toBe(schema.ok);
          // toEqual treats an absent key like undefined; the schema leaves absent properties undefined.
          const norm = (v: unknown) => ({
            ...(v as object),
            properties: (v as { properties?: unknown }).properties ?? null,
          });
          if (fast.ok) expect(norm(fast.value)).toEqual(norm(schema.value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('bounds properties by keys, depth, key and string length, and size', () => {
    expect(propertiesProblem({ plan: 'pro', n: 1, nested: { a: [1, 2] } })).toBeNull();
    expect(
      propertiesProblem(
        Object.fromEntries(Array.from({ length: L.properties.keys + 1 }, (_, i) => [`k${i}`, i])),
      ),
    ).toMatch(/keys/);
    expect(propertiesProblem({ a: { b: { c: { d: 1 } } } })).toMatch(/deeper/);
    expect(propertiesProblem({ ['k'.repeat(L.properties.keyLength + 1)]: 1 })).toMatch(/key longer/);
    expect(propertiesProblem({ s: 'x'.repeat(L.properties.stringLength + 1) })).toMatch(/string longer/);
    const big = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(L.properties.stringLength)]),
    );
    expect(propertiesProblem(big)).toMatch(/bytes/);
  });

  it('keeps only the path of a page, and the origin+path of an external referrer', () => {
    expect(pagePath('https://agency.example/pricing?email=a@b.c#top')).toBe('/pricing');
    expect(pagePath('/blog/post?utm_source=x')).toBe('/blog/post');
    expect(pagePath('pricing')).toBe('/pricing');
    expect(referrerParts('https://www.google.com/search?q=secret', '/x', ['agency.example'])).toEqual({
      referrer: 'https://www.google.com/search',
      host: 'google.com',
    });
    expect(referrerParts('https://www.agency.example/a', '/x', ['agency.example']).host).toBeNull();
    expect(referrerParts('https://shop.example/a', 'https://shop.example/b', []).host).toBeNull();
    expect(referrerParts('javascript:alert(1)', '/x', [])).toEqual({ referrer: null, host: null });
    expect(referrerParts('not a url', '/x', [])).toEqual({ referrer: null, host: null });
  });

  it('refuses deeply nested JSON anywhere in the body without overflowing the stack', async () => {
    const deep = `{"type":"x","page":"/","extra":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    await expect(parseTrackBody('text/plain', new TextEncoder().encode(deep))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/nested/),
    });
  });
});
