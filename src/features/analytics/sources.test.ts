import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { sourceCategory, sourceOf, utmOf } from './sources.ts';

/** What URLSearchParams reads, trimmed and cut like the stored tags. */
function reference(search: string) {
  const params = new URLSearchParams(search);
  const tag = (name: string) => {
    const value = params.get(name)?.trim();
    return value ? value.slice(0, L.utmLength) : null;
  };
  return {
    source: tag('utm_source'),
    medium: tag('utm_medium'),
    campaign: tag('utm_campaign'),
    ref: tag('ref') ?? tag('source'),
  };
}

describe('UTM tags and sources', () => {
  it('reads the tags as URLSearchParams would', () => {
    for (const search of [
      '?utm_source=news&utm_medium=email&utm_campaign=spring+sale',
      '?utm_campaign=%C3%B1and%C3%BA&utm_source=a&utm_source=b',
      '?utm%5Fsource=encoded-name&ref=producthunt',
      '?source=x&ref=',
      '?utm_source=%E0%A4%A',
      '?utm_source',
      `?utm_campaign=${'c'.repeat(300)}`,
      '?',
      '',
    ]) {
      const expected = reference(search);
      // A malformed escape: URLSearchParams turns it into U+FFFD, this keeps it as it came.
      if (search.includes('%E0%A4%A')) expected.source = '%E0%A4%A';
      expect(utmOf(search), search).toEqual(expected);
    }
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('utm_source', 'utm_medium', 'utm_campaign', 'ref', 'source', 'x'),
            fc.string({ maxLength: 20 }),
          ),
          { maxLength: 6 },
        ),
        (pairs) => {
          const search = `?${new URLSearchParams(pairs).toString()}`;
          expect(utmOf(search)).toEqual(reference(search));
        },
      ),
    );
  });

  it('names sources: a tag first, then the referrer host, known ones by name', () => {
    expect(sourceOf(null, null)).toBeNull();
    expect(sourceOf(null, 'google.de')).toBe('Google');
    expect(sourceOf(null, 'google.co.uk')).toBe('Google');
    expect(sourceOf(null, 'news.google.com')).toBe('Google');
    expect(sourceOf(null, 'gemini.google.com')).toBe('Gemini');
    expect(sourceOf(null, 'l.facebook.com')).toBe('Facebook');
    expect(sourceOf(null, 't.co')).toBe('X (Twitter)');
    expect(sourceOf(null, 'googleusercontent.com')).toBe('googleusercontent.com');
    expect(sourceOf(null, 'blog.example')).toBe('blog.example');
    expect(sourceOf('FB', 'google.com')).toBe('Facebook');
    expect(sourceOf('partner-x', 'google.com')).toBe('partner-x');
    expect(sourceCategory('Google')).toBe('search');
    expect(sourceCategory('LinkedIn')).toBe('social');
    expect(sourceCategory('ChatGPT')).toBe('ai');
    expect(sourceCategory('blog.example')).toBe('referral');
    expect(sourceCategory('partner-x')).toBe('campaign');
    expect(sourceCategory(null)).toBe('direct');
  });
});
