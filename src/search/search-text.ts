import { foldForSearch } from '../integrations/llm/offline/text.ts';

const STOPWORDS = new Set(
  (
    'a an the and or of to in on at for with by is are be it this that we our you your i my me from as what how do does ' +
    'el la los las un una unos unas y o de del en con por para es son que se su sus nuestro nuestra mi mis lo al como'
  ).split(' '),
);

const NON_ASCII = /[\u0080-\u{10ffff}]/u;
const MARKS = /\p{M}+/gu;

/**
 * Folded for search. The text is decomposed first (NFKD) and its combining marks dropped: `ñ` written
 * as `n` + U+0303 (as macOS and some editors save it) folds to `n` like the precomposed `ñ`, instead
 * of to `n` and a separate word; a ligature copied from a PDF (`ﬁ`) becomes its letters.
 */
function foldText(text: string): string {
  return foldForSearch(NON_ASCII.test(text) ? text.normalize('NFKD').replace(MARKS, '') : text);
}

/**
 * One folded word with its plural ending removed so that the singular and the plural meet (EN and
 * ES): `es` after s, x, z, ch or sh (processes, boxes, meses), a final `s` but not `ss` (process,
 * business), then a final `e`. `website`/`websites`, `cliente`/`clientes`, `red`/`redes` and
 * `app`/`apps` each share one stem (`websit`, `client`, `red`, `app`).
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && /(?:[sxz]|[cs]h)es$/.test(w)) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The text as the index stores it: folded, stemmed words separated by spaces. */
export function indexText(text: string): string {
  return foldText(text).split(' ').filter(Boolean).map(stem).join(' ');
}

/** The distinct query terms (stopwords dropped unless nothing else is left), at most 32. */
export function queryTerms(query: string): string[] {
  const words = foldText(query).split(' ').filter(Boolean);
  const useful = words.filter((w) => !STOPWORDS.has(w));
  return [...new Set((useful.length > 0 ? useful : words).map(stem))].slice(0, 32);
}
