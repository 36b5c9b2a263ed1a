import { foldForSearch } from '../integrations/llm/offline/text.ts';

const STOPWORDS = new Set(
  (
    'a an the and or of to in on at for with by is are be it this that we our you your i my me from as what how do does ' +
    'el la los las un una unos unas y o de del en con por para es son que se su sus nuestro nuestra mi mis lo al como'
  ).split(' '),
);

/** One search term: folded, and a trailing plural `s`/`es` removed from longer words (EN and ES). */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The text as the index stores it: folded, stemmed words separated by spaces. */
export function indexText(text: string): string {
  return foldForSearch(text).split(' ').filter(Boolean).map(stem).join(' ');
}

/** The distinct query terms (stopwords dropped unless nothing else is left), at most 32. */
export function queryTerms(query: string): string[] {
  const words = foldForSearch(query).split(' ').filter(Boolean);
  const useful = words.filter((w) => !STOPWORDS.has(w));
  return [...new Set((useful.length > 0 ? useful : words).map(stem))].slice(0, 32);
}
