import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AI_LIMITS } from './limits.ts';
import { PLANS } from './plans.ts';
import {
  applySafetyNet,
  cleanFields,
  cleanList,
  cleanText,
  isPlaceholder,
  normalizeLocale,
  postProcessRecommend,
  postProcessRefine,
  recommendFallback,
  weakSignals,
} from './postprocess.ts';
import { RecommendResponseSchema, RefineResponseSchema } from './schemas.ts';

const ctx = {
  language: 'en' as const,
  message: 'We need a website',
  ctaUrl: 'https://site.test/wizard',
  backupSignals: () => ['We need a website', 'for our clinic'],
};

describe('placeholders', () => {
  it.each([
    'none',
    'None mentioned',
    'N/A',
    'n.a.',
    'TBD',
    '-',
    '—',
    '...',
    'null',
    'Not specified',
    'unknown',
    'Ninguno',
    'ninguna mencionada',
    'No aplica',
    'Por definir',
    'No especificado',
    'Sin información',
    'desconocido',
    '<signal>',
    '[item]',
    '{placeholder}',
    // The Spanish variants of "TBD", "TBC", "N/A", "undefined", "null", "no details".
    'A definir',
    'Sin definir',
    'Por confirmar',
    'No aplicable',
    'Indefinido',
    'No definido',
    'Nulo',
    'Sin detalles',
    'No hay información',
    'Ninguno especificado',
  ])('%s is a placeholder', (text) => {
    expect(isPlaceholder(text)).toBe(true);
  });

  it.each([
    'None of the competitors have online booking',
    'NA market expansion',
    'Website',
    'Nada de colores chillones',
  ])('%s is kept', (text) => {
    expect(isPlaceholder(text)).toBe(false);
  });
});

describe('text cleaning', () => {
  it('strips markup and control characters, collapses space and truncates', () => {
    expect(cleanText('  <b>Hello</b>\n\tworld<script>alert(1)</script>\u0000 ', 100)).toBe('Hello world');
    const cut = cleanText('word '.repeat(100), 50)!;
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.endsWith('…')).toBe(true);
    expect(cleanText(42, 10)).toBeNull();
    expect(cleanText({ a: 1 }, 10)).toBeNull();
    expect(cleanText('N/A', 10)).toBeNull();
  });

  it("drops the prompts' own example values copied back by a model, and only those", () => {
    for (const echo of [
      'One sentence.',
      'one short sentence restating the request',
      'Short noun phrases the visitor expressed',
      'short noun phrases or fragments from the text',
    ]) {
      expect(cleanText(echo, 240)).toBeNull();
    }
    expect(cleanText('One sentence about the booking flow', 240)).toBe('One sentence about the booking flow');
  });

  it('never answers half of an astral character: cuts keep emoji whole, lone surrogates become U+FFFD', () => {
    const emoji = '😀'.repeat(600);
    for (const max of [AI_LIMITS.refineSummaryMax, AI_LIMITS.signalMax, AI_LIMITS.sectionItemMax, 7, 8]) {
      const cut = cleanText(emoji, max)!;
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.isWellFormed()).toBe(true);
      expect(cleanText(`a${emoji}`, max)!.isWellFormed()).toBe(true);
    }
    expect(cleanText('a\ud800b \udfff c', 100)).toBe('a\ufffdb \ufffd c');
    // The cut that bounds the work on hostile input keeps emoji whole too.
    // (100 → a bound of 1400 units, which falls inside the second emoji: markup leaves "ab" and one and a half.)
    expect(cleanText(`${'<b>'.repeat(465)}ab${'😀'.repeat(10)}`, 100)).toBe('ab😀');
  });

  it('lists drop non-strings, placeholders and duplicates, and cap count and length', () => {
    expect(cleanList(['a', 'A', 1, null, 'TBD', ['x'], 'b'], 5, 10)).toEqual(['a', 'b']);
    expect(cleanList('not a list', 5, 10)).toEqual([]);
    expect(
      cleanList(
        Array(50)
          .fill(0)
          .map((_, i) => `i${i}`),
        3,
        10,
      ),
    ).toEqual(['i0', 'i1', 'i2']);
  });

  it.each([
    ['es', 'es'],
    ['es-CO', 'es'],
    ['es_419', 'es'],
    ['ES', 'es'],
    ['en-GB', 'en'],
    ['pt', 'en'],
    ['esperanto', 'en'],
    [undefined, 'en'],
    [null, 'en'],
  ])('locale %s → %s', (locale, expected) => {
    expect(normalizeLocale(locale)).toBe(expected);
  });
});

describe('recommend rules', () => {
  it('injects the plan from the table, never the model', () => {
    const out = postProcessRecommend(
      { recommendedPath: 'Scale', plan: { name: 'HACKED' } },
      { ...ctx, language: 'es' },
    )!;
    expect(out.plan).toEqual(PLANS.Scale.es);
    expect(out.ctaUrl).toBe(ctx.ctaUrl);
    expect(out.ctaLabel).toBeTruthy();
  });

  it('accepts path spellings loosely but only known paths', () => {
    expect(postProcessRecommend({ recommendedPath: 'technical_review' }, ctx)?.recommendedPath).toBe(
      'Technical Review',
    );
    expect(postProcessRecommend({ recommendedPath: 'BUILD' }, ctx)?.recommendedPath).toBe('Build');
    expect(postProcessRecommend({ recommendedPath: 'Enterprise' }, ctx)).toBeNull();
    expect(postProcessRecommend({ recommendedPath: ['Build'] }, ctx)).toBeNull();
  });

  it("keeps 2–6 signals of at most 240 characters, topping up from the visitor's words", () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const many = postProcessRecommend(
      { recommendedPath: 'Build', rationale: { signals: [...words, 'x'.repeat(500)] } },
      { ...ctx, message: `${words.join(' ')} ${'x'.repeat(500)}` },
    )!;
    expect(many.rationale.signals).toEqual(words.slice(0, 6));
    const few = postProcessRecommend(
      { recommendedPath: 'Build', rationale: { signals: ['N/A', 'a website'] } },
      ctx,
    )!;
    expect(few.rationale.signals).toEqual(['a website', 'We need a website']);
    const long = postProcessRecommend(
      { recommendedPath: 'Build', rationale: { signals: ['website '.repeat(200), 'z'] } },
      { ...ctx, message: 'website '.repeat(200) },
    )!;
    expect(long.rationale.signals[0]!.length).toBeLessThanOrEqual(AI_LIMITS.signalMax);
    // Nothing usable from the model nor in the visitor's words ("?", "N/A. TBD."): the message
    // quoted in two halves keeps the list at two; one word is quoted twice, once labelled in the
    // visitor's language. Never a statement about the message.
    for (const language of ['en', 'es'] as const) {
      const bare = postProcessRecommend(
        { recommendedPath: 'Technical Review', rationale: { signals: ['N/A'] } },
        { ...ctx, message: 'TBD ?', language, backupSignals: () => ['TBD', '?'] },
      )!;
      expect(bare.rationale.signals).toEqual(['“TBD”', '“?”']);
      const one = postProcessRecommend(
        { recommendedPath: 'Technical Review', rationale: { signals: [] } },
        { ...ctx, message: '??', language, backupSignals: () => [] },
      )!;
      expect(one.rationale.signals).toEqual([`${language === 'es' ? 'Mensaje' : 'Message'}: “??”`, '“??”']);
    }
  });

  it('drops alternatives that repeat the primary, are unknown, duplicate or placeholders; keeps at most 2', () => {
    const out = postProcessRecommend(
      {
        recommendedPath: 'Build',
        alternatives: [
          { path: 'Build', whenItWouldFit: 'same as primary' },
          { path: 'Mega', whenItWouldFit: 'unknown path' },
          { path: 'Launch', whenItWouldFit: 'TBD' },
          'junk',
          { path: 'Scale', whenItWouldFit: 'If traffic grows.' },
          { path: 'Scale', whenItWouldFit: 'duplicate' },
          { path: 'Custom', whenItWouldFit: 'If you need integrations.' },
          { path: 'Technical Review', whenItWouldFit: 'third one' },
        ],
      },
      ctx,
    )!;
    expect(out.alternatives).toEqual([
      { path: 'Scale', whenItWouldFit: 'If traffic grows.' },
      { path: 'Custom', whenItWouldFit: 'If you need integrations.' },
    ]);
  });

  it("drops a model's signals that are not traceable to the visitor's words", () => {
    const out = postProcessRecommend(
      {
        recommendedPath: 'Build',
        rationale: {
          signals: [
            'The message gives few details about the project.',
            'Wants a new website',
            'Quotes “a new website for the bakery”',
            'Strong demand for mobile commerce in the region',
          ],
        },
      },
      { ...ctx, message: 'We want a new website for the bakery' },
    )!;
    expect(out.rationale.signals).toEqual(['Wants a new website', 'Quotes “a new website for the bakery”']);
  });

  it('checks the confidence enumeration; Technical Review is always low', () => {
    expect(postProcessRecommend({ recommendedPath: 'Build', confidence: 'very high' }, ctx)!.confidence).toBe(
      'medium',
    );
    expect(postProcessRecommend({ recommendedPath: 'Build', confidence: 'high' }, ctx)!.confidence).toBe(
      'high',
    );
    expect(
      postProcessRecommend({ recommendedPath: 'Technical Review', confidence: 'high' }, ctx)!.confidence,
    ).toBe('low');
  });

  it('with nothing to quote (model nor visitor), the answer is low confidence whatever the model claimed', () => {
    for (const language of ['en', 'es'] as const) {
      for (const confidence of ['high', 'medium', undefined]) {
        const bare = postProcessRecommend(
          { recommendedPath: 'Build', confidence, rationale: { signals: ['N/A', '<signal>'] } },
          { ...ctx, message: '?', language, backupSignals: () => ['?'] },
        )!;
        expect(bare.rationale.signals).toEqual(weakSignals('?', language));
        expect(bare.confidence).toBe('low');
      }
    }
    // One quotable signal (the model's, or the visitor's words): the model's confidence stands.
    const one = postProcessRecommend(
      { recommendedPath: 'Scale', confidence: 'high', rationale: { signals: ['the site is slow'] } },
      { ...ctx, message: 'the site is slow', backupSignals: () => ['N/A'] },
    )!;
    expect(one.rationale.signals).toEqual(['the site is slow', weakSignals('the site is slow', 'en')[0]]);
    expect(one.confidence).toBe('high');
    const fromWords = postProcessRecommend({ recommendedPath: 'Build', confidence: 'high' }, ctx)!;
    expect(fromWords.rationale.signals).toEqual(['We need a website', 'for our clinic']);
    expect(fromWords.confidence).toBe('high');
  });

  it('limits the rationale summary to 400 characters', () => {
    const out = postProcessRecommend(
      { recommendedPath: 'Build', rationale: { summary: 'r'.repeat(2000) } },
      ctx,
    )!;
    expect(out.rationale.summary.length).toBeLessThanOrEqual(AI_LIMITS.rationaleSummaryMax);
  });

  it('the fallback is a low-confidence Technical Review in the requested language', () => {
    const out = recommendFallback({ ...ctx, language: 'es' });
    expect(RecommendResponseSchema.parse(out)).toMatchObject({
      recommendedPath: 'Technical Review',
      plan: PLANS['Technical Review'].es,
      alternatives: [],
      rationale: { signals: [] },
      confidence: 'low',
      language: 'es',
    });
    expect(out.missingInformation.length).toBeGreaterThan(0);
  });

  it('hostile output never breaks the schema', () => {
    const junk = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.anything()),
      fc.dictionary(fc.string(), fc.anything()),
    );
    fc.assert(
      fc.property(
        fc.record({
          summary: junk,
          recommendedPath: fc.constantFrom('Build', 'Launch', 'Scale', 'Custom', 'Technical Review'),
          rationale: fc.oneof(
            junk,
            fc.record({
              summary: junk,
              signals: fc.oneof(junk, fc.array(fc.oneof(fc.string({ maxLength: 600 }), junk))),
            }),
          ),
          alternatives: fc.oneof(
            junk,
            fc.array(
              fc.record({ path: fc.oneof(junk, fc.constantFrom('Build', 'Scale')), whenItWouldFit: junk }),
            ),
          ),
          detectedNeeds: junk,
          missingInformation: junk,
          confidence: junk,
        }),
        (raw) => {
          const out = postProcessRecommend(raw as Record<string, unknown>, ctx);
          expect(out).not.toBeNull();
          RecommendResponseSchema.parse(out);
          expect(out!.rationale.signals.length).toBeGreaterThanOrEqual(2);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('refine rules', () => {
  it('orders sections, merges duplicates, drops unknown keys and empty sections', () => {
    const out = postProcessRefine(
      {
        summary: 'A site',
        sections: [
          { key: 'context', items: ['old site'] },
          { key: 'Service', items: ['website'] },
          { key: 'unknown', items: ['x'] },
          { key: 'goal', items: [] },
          { key: 'style', items: ['none mentioned'] },
          { key: 'service', items: ['website', 'blog'] },
        ],
      },
      'msg',
      'en',
    )!;
    expect(out.sections).toEqual([
      { key: 'service', items: ['website', 'blog'] },
      { key: 'context', items: ['old site'] },
    ]);
  });

  it('accepts sections written as an object map', () => {
    const out = postProcessRefine({ sections: { goal: ['more sales'], features: 'booking' } }, 'msg', 'es')!;
    expect(out.sections).toEqual([
      { key: 'goal', items: ['more sales'] },
      { key: 'features', items: ['booking'] },
    ]);
    expect(out.language).toBe('es');
  });

  it('caps suggestions at 5 × 160 and the summary at 320; a missing summary is the message', () => {
    const out = postProcessRefine(
      {
        sections: [],
        suggestions: Array(9)
          .fill(0)
          .map((_, i) => `${i}`.repeat(200)),
      },
      '  the msg ',
      'en',
    )!;
    expect(out.suggestions).toHaveLength(AI_LIMITS.suggestionsMax);
    for (const s of out.suggestions) expect(s.length).toBeLessThanOrEqual(AI_LIMITS.suggestionMax);
    expect(out.summary).toBe('the msg');
  });

  it('sets values outside the enumerations to null and keeps every key', () => {
    expect(
      cleanFields({
        initialChoice: 'create',
        service: 'build-website',
        industry: 'Healthcare',
        audience: 'b2b',
        extra: 1,
      }),
    ).toEqual({
      initialChoice: 'create',
      service: 'build-website',
      industry: null,
      audience: 'b2b',
      style: null,
    });
    expect(cleanFields('nope')).toEqual({
      initialChoice: null,
      service: null,
      industry: null,
      audience: null,
      style: null,
    });
  });

  it.each([
    ['help', 'build-website', null],
    ['help', 'build-application', null],
    ['help', 'strategic-consultation', null],
    ['help', 'technical-advisory', null],
    ['help', 'infrastructure-scale', 'infrastructure-scale'],
    ['help', 'workflow-automation', 'workflow-automation'],
    ['help', 'dedicated-team', 'dedicated-team'],
    ['create', 'build-website', 'build-website'],
    ['create', 'seo-services', null],
    ['create', 'maintenance-plans', null],
    ['create', 'development-support', null],
    ['create', 'infrastructure-scale', null],
    ['create', 'technical-advisory', null],
    ['create', 'workflow-automation', 'workflow-automation'],
    ['advice', 'build-website', null],
    ['advice', 'dedicated-team', null],
    ['advice', 'strategic-consultation', 'strategic-consultation'],
    ['advice', 'technical-advisory', 'technical-advisory'],
    [null, 'build-website', 'build-website'],
  ] as const)('safety net: %s + %s → %s', (initialChoice, service, expected) => {
    expect(
      applySafetyNet({ initialChoice, service, industry: null, audience: null, style: null }).service,
    ).toBe(expected);
  });

  it('returns null (→ fallback) for an object that is not a refinement at all', () => {
    expect(postProcessRefine({ answer: 'hello' }, 'm', 'en')).toBeNull();
  });

  it('hostile output never breaks the schema', () => {
    fc.assert(
      fc.property(
        fc.record({
          summary: fc.anything(),
          sections: fc.oneof(
            fc.anything(),
            fc.array(
              fc.record({
                key: fc.oneof(fc.string(), fc.constantFrom('goal', 'features', 'style')),
                items: fc.oneof(fc.anything(), fc.array(fc.string({ maxLength: 500 }))),
              }),
            ),
          ),
          suggestions: fc.anything(),
          fields: fc.anything(),
        }),
        (raw) => {
          const out = postProcessRefine(raw as Record<string, unknown>, 'message', 'en');
          RefineResponseSchema.parse(out);
        },
      ),
      { numRuns: 300 },
    );
  });
});
