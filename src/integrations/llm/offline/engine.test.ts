import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AI_EVAL_SETS, readEvalSet } from '../../../../eval/sets.ts';
import { AI_LIMITS } from '../../../features/ai/limits.ts';
import { RecommendResponseSchema, RefineResponseSchema } from '../../../features/ai/schemas.ts';
import { recommendPlan, refineMessage } from '../../../features/ai/service.ts';
import { analyze } from './analyze.ts';
import * as lexicon from './lexicon.ts';
import { type Cue, possibleCues, startsOf } from './lexicon.ts';
import { fold, fragments } from './text.ts';
import { wordHits } from './words.ts';

const cases = AI_EVAL_SETS.flatMap(readEvalSet);
const ctx = {
  llm: null,
  search: { search: async () => [] },
  wizardUrl: 'https://site.test/wizard',
  logger: pino({ level: 'silent' }),
};

describe('offline engine on the whole evaluation set', () => {
  it.each(cases.map((c) => [c.id, c] as const))('%s answers within the documented schema', async (_id, c) => {
    const recommendation = RecommendResponseSchema.parse(
      await recommendPlan({ message: c.message, locale: c.locale }, ctx),
    );
    expect(recommendation.language).toBe(c.locale.startsWith('es') ? 'es' : 'en');
    expect(recommendation.rationale.signals.length).toBeGreaterThanOrEqual(AI_LIMITS.signalsMin);
    if (recommendation.recommendedPath === 'Technical Review') expect(recommendation.confidence).toBe('low');
    const folded = fold(c.message);
    // Signals and detected needs come from the visitor's own words (or say that details are missing).
    for (const signal of recommendation.rationale.signals) {
      expect(folded.includes(fold(signal).trim()) || /few details|pocos detalles/.test(signal)).toBe(true);
    }
    for (const need of recommendation.detectedNeeds) expect(folded).toContain(fold(need).trim());

    const refinement = RefineResponseSchema.parse(
      await refineMessage({ message: c.message, locale: c.locale }, ctx),
    );
    // The refine summary holds facts from the visitor only: one sentence of their own words.
    const collapsed = c.message.replace(/\s+/g, ' ').trim();
    expect(collapsed).toContain(refinement.summary);
    expect(refinement.summary.length).toBeGreaterThan(0);
  });

  it('is deterministic', async () => {
    const c = cases[0]!;
    const a = await recommendPlan({ message: c.message, locale: c.locale }, ctx);
    const b = await recommendPlan({ message: c.message, locale: c.locale }, ctx);
    expect(a).toEqual(b);
  });

  it('quotes one long clause as two signals, and states "few details" only for a vague message', async () => {
    const chatbot = await recommendPlan(
      {
        message:
          'AI chatbot that answers customer questions from our product manuals and hands over to support agents.',
      },
      ctx,
    );
    expect(chatbot.rationale.signals).toEqual([
      'AI chatbot that answers customer questions from our product manuals',
      'and hands over to support agents',
    ]);
    const spanish = await recommendPlan(
      {
        message: 'queremos un chatbot con IA q responda a los clientes usando nuestros manuales',
        locale: 'es',
      },
      ctx,
    );
    expect(spanish.rationale.signals).toEqual([
      'Un chatbot con IA q responda a los clientes',
      'usando nuestros manuales',
    ]);
    const vague = await recommendPlan({ message: 'hi there' }, ctx);
    expect(vague.rationale.signals).toEqual(['hi there', 'The message gives few details about the project.']);
  });

  it('answers a one-word message and a 2000-character message', async () => {
    for (const message of ['x', 'website '.repeat(250).trim()]) {
      RecommendResponseSchema.parse(await recommendPlan({ message }, ctx));
      RefineResponseSchema.parse(await refineMessage({ message }, ctx));
    }
  });
});

describe('text helpers', () => {
  it('fold keeps offsets aligned with the original', () => {
    const text = 'Página 👋 ÉXITO señal';
    const folded = fold(text);
    expect(folded.length).toBe(text.length);
    expect(folded.indexOf('exito')).toBe(text.indexOf('ÉXITO'));
  });

  it('splits clauses at punctuation and conjunctions', () => {
    expect(fragments('A website, then an app. But first SEO').map((f) => f.text)).toEqual([
      'A website',
      'then an app',
      'first SEO',
    ]);
  });
});

describe('evidence layers', () => {
  it('fold: the ASCII fast path gives what the character loop gives', () => {
    const ascii = 'Hello, World! 42\t~ ok_[x]';
    expect(fold(`${ascii}é`)).toBe(`${fold(ascii)}e`); // the second string takes the loop
    expect(fold(ascii)).toHaveLength(ascii.length);
  });

  it('startsOf reduces a pattern to the word starts it needs, or null', () => {
    expect(startsOf('webs?|sites?|e ?commerce')).toEqual(['web', 'sit', 'e']);
    expect(startsOf('(?:buy|order) online|shop')).toEqual(['buy', 'ord', 'sho']);
    expect(startsOf('(?:a|b)? c')).toBeNull();
    expect(startsOf('\\d+ languages')).toBeNull();
  });

  it('never skips a cue that matches (the word-start index is sound on every evaluation message)', () => {
    const all: Cue[] = [];
    for (const value of Object.values(lexicon)) {
      const lists = Array.isArray(value)
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value)
          : [];
      for (const list of lists) if (Array.isArray(list)) all.push(...(list as Cue[]));
    }
    for (const c of cases) {
      const folded = fold(c.message);
      const starts = new Set<string>();
      for (const [word] of folded.matchAll(/[a-z0-9]+/g))
        starts.add(word.slice(0, 1)).add(word.slice(0, 2)).add(word.slice(0, 3));
      const active = possibleCues(starts);
      for (const cue of all) {
        cue.re.lastIndex = 0;
        if (cue.starts && cue.re.test(folded))
          expect(active.has(cue), `${c.id}: ${cue.re.source}`).toBe(true);
        cue.re.lastIndex = 0;
      }
    }
  });

  it('reads word stems and synonyms beyond the phrase cues', () => {
    const ids = (message: string) => wordHits(fold(message)).map((h) => h.target);
    expect(ids('the checkout freezes')).toContain('infrastructure-scale');
    expect(ids('se congela todo')).toContain('infrastructure-scale');
    expect(ids('competitors outrank us')).toContain('seo-services');
    expect(ids('sitios web')).toContain('build-website');
  });

  it('treats the product as context when something fails, and takes a weak lean on a stated want', () => {
    expect(analyze('La app de nosotros se cierra sola y el que la hizo ya no contesta').path).toBe('Scale');
    expect(analyze('I need a place on the internet for my studio').path).toBe('Build');
    expect(analyze('hello there').path).toBe('Technical Review');
  });
});
