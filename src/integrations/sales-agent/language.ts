/** The languages the built-in agent writes its offline answers in. */
export type AnswerLanguage = 'en' | 'es';

const SPANISH_WORDS = new Set(
  (
    'el la los las un una unos unas de del que y en por para con sin es son está están hola gracias ' +
    'cómo como qué cuánto cuanto cuesta precio precios quiero necesito tienen hacen ustedes mi mis su sus ' +
    'página web sitio aplicación empresa desarrollo diseño tienda presupuesto pero más muy también puedo ' +
    'podrían pueden dónde cuándo cual cuál nosotros nuestro nuestra servicio servicios buenas buenos días'
  ).split(' '),
);
const ENGLISH_WORDS = new Set(
  (
    'the a an of and to in for with without is are do does you your we our my i how what much cost ' +
    'price prices want need have can could would website site app application company development ' +
    'design store quote but more very also where when which service services hello hi thanks please'
  ).split(' '),
);

/**
 * The visitor's language for an offline answer: the `language` the browser sent when it is English or
 * Spanish, otherwise a guess from the words of the question (Spanish punctuation and accents count
 * strongly). Anything undecided is English.
 */
export function answerLanguage(language: string | null, text: string): AnswerLanguage {
  const tag = language?.trim().toLowerCase().slice(0, 2);
  if (tag === 'es' || tag === 'en') return tag;
  // ¿ ¡ ñ and á é í ó ú, escaped: the server bundle stays ASCII (scripts/build-server.ts).
  let spanish = /[\u00bf\u00a1\u00f1]/i.test(text) ? 3 : 0;
  let english = 0;
  if (/[\u00e1\u00e9\u00ed\u00f3\u00fa]/i.test(text)) spanish += 1;
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (SPANISH_WORDS.has(word)) spanish++;
    if (ENGLISH_WORDS.has(word)) english++;
  }
  return spanish > english ? 'es' : 'en';
}
