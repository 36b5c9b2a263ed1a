import { describe, expect, it } from 'vitest';
import { AI_TUNING_SETS, messagesOf, readAiSet } from '../../../../eval/sets.ts';
import { analyze } from './analyze.ts';
import * as lexicon from './lexicon.ts';
import { type Cue, possibleCues, startsOf } from './lexicon.ts';
import { fold } from './text.ts';
import { wordHits } from './words.ts';

/** The hand-made analysis, which the trained models read as features. */
const cases = AI_TUNING_SETS.flatMap((name) => messagesOf(readAiSet(name)));

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
