import { fold } from './text.ts';

/**
 * Mechanical checks on what an answer says about the visitor's words, shared by the engine, the
 * post-processing and the evaluation (eval/score-ai.ts), so the three use one definition.
 */
const FUNCTION_WORDS = new Set(
  (
    'the and for with our your their you are was were has have had this that these those from into onto ' +
    'about what which who whom when where how why can could would should will shall may might must not ' +
    'but also just only very too all any some more most much many one two its his her they them then than ' +
    'there here out off over under again such own same other each both few nor yet get got need needs want ' +
    'wants like would make made does did doing done been being is be it an a of to in on at by or we i me my ' +
    'los las del una unos unas que con para por pero como mas muy sus nuestro nuestra nuestros nuestras ' +
    'este esta estos estas ese esa eso esos esas hay tiene tienen tenemos somos son fue ser estar esta estan ' +
    'queremos quiero necesitamos necesito nos les lo le se al el la en de y o u a mi tu su ya sin sobre ' +
    'entre hasta desde cuando donde porque tambien algo alguien todo toda todos todas otro otra otros otras'
  ).split(' '),
);

/** The folded words of a text that carry meaning (three letters or more, not a function word). */
export function contentWords(text: string): string[] {
  return (fold(text).match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w));
}

const stem = (word: string) => word.slice(0, 5);

/** The message as signals are compared with it, kept for the last message (an answer checks several signals). */
let lastReading: { message: string; foldedMessage: string; said: Set<string> } | null = null;
function messageReading(message: string) {
  if (lastReading?.message !== message) {
    lastReading = {
      message,
      foldedMessage: ` ${fold(message).replace(/\s+/g, ' ').trim()} `,
      said: new Set(contentWords(message).map(stem)),
    };
  }
  return lastReading;
}

/** Words a quote may be labelled with ("Message: “…”"): they say where the words are, not what they mean. */
const QUOTE_LABELS = new Set(
  'message mensaje mentions mentioned says said asks asked writes wrote quotes quoted menciona menciono dice dijo pide pidio escribe escribio cita'.split(
    ' ',
  ),
);
// Non-ASCII characters of regular expressions are written escaped: the server bundle stays ASCII
// (scripts/build-server.test.ts).
const QUOTED = /[\u201c"\u00ab]([^\u201d"\u00bb]+)[\u201d"\u00bb]/g;

/**
 * A signal is traceable to the visitor's words when it quotes them (the whole signal, or a span in
 * quotation marks found in the message, folded, with nothing around the quotes but a label or the
 * message's own words) or when at least half of its content words (compared on their first five
 * letters) are the message's. A statement about the message ("The message gives few details", or
 * "“hi there”: no project named yet", which quotes it) is none of these.
 */
export function isTraceable(signal: string, message: string): boolean {
  const { foldedMessage, said } = messageReading(message);
  const foldedSignal = fold(signal).replace(/\s+/g, ' ').trim();
  if (foldedSignal && foldedMessage.includes(` ${foldedSignal} `)) return true;
  // A signal with quotation marks is judged by what it quotes and what it says around the quotes.
  let quotes = 0;
  let quotesMessage = false;
  for (const quoted of signal.matchAll(QUOTED)) {
    quotes++;
    const inner = fold(quoted[1]!).replace(/\s+/g, ' ').trim();
    if (/[a-z0-9]/.test(inner) && foldedMessage.includes(` ${inner} `)) quotesMessage = true;
  }
  if (quotes > 0) {
    const around = contentWords(signal.replace(QUOTED, ' '));
    return quotesMessage && around.every((w) => QUOTE_LABELS.has(w) || said.has(stem(w)));
  }
  const words = contentWords(signal);
  if (words.length === 0) return false;
  const shared = words.filter((w) => said.has(stem(w))).length;
  return shared > 0 && shared * 2 >= words.length;
}

const VERBS = new Set(
  (
    'build create make launch fix help migrate scale automate redesign improve integrate connect sell book ' +
    'manage develop design grow need want start update optimize optimise rebuild host deploy publish ' +
    'review audit advise maintain support hire add change move sync track pay order buy find rank ' +
    'crear hacer lanzar arreglar ayudar migrar escalar automatizar redisenar mejorar integrar conectar ' +
    'vender reservar gestionar desarrollar disenar crecer necesitar querer empezar actualizar optimizar ' +
    'rehacer publicar revisar auditar asesorar mantener soportar contratar agregar sumar cambiar mover ' +
    'sincronizar pagar pedir comprar encontrar montar armar sacar subir ver'
  ).split(' '),
);
/** Words ending like a Spanish infinitive that are nouns. */
const NOT_VERBS = new Set(
  'bar lugar hogar taller mar par cancer master poster server router banner player ' +
    'computer manager developer designer partner newsletter slider chatter twitter flutter docker timer ' +
    'provider trailer order tier'.split(' '),
);

/** A detected need that is one verb ("build", "crear") rather than a noun phrase. */
export function isSingleVerb(item: string): boolean {
  const words = fold(item).match(/[a-z0-9]+/g) ?? [];
  if (words.length !== 1) return false;
  const word = words[0]!;
  if (VERBS.has(word)) return true;
  return /^[a-z]{3,}(?:ar|er|ir)$/.test(word) && !NOT_VERBS.has(word) && /[^aeiou](?:ar|er|ir)$/.test(word);
}

const TIME =
  /\b(?:by|before|until|deadline|asap|urgent\w*|soon|next (?:week|month|year|quarter|season|spring|summer|autumn|fall|winter)|this (?:week|month|year|quarter|summer|spring|fall|winter)|in \d+ (?:days?|weeks?|months?)|\d+ (?:days?|weeks?|months?|years?)|weeks?|months?|q[1-4]|january|february|march|april|may|june|july|august|september|october|november|december|christmas|black friday|antes|hasta|plazo|fecha|urgente|pronto|cuanto antes|proxim[oa]s?|semanas?|mes|meses|anos?|dias|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|navidad|temporada)\b/;
const MONEY =
  /[$\u20ac\u00a3]|\b(?:budget|presupuesto|cost|costs|price|pricing|quote|usd|eur|gbp|dollars?|euros?|pounds?|pesos?|soles|mxn|cop|clp|ars|dolares?|\d+ ?k|\d+ (?:mil|millones|thousand|million|lucas?|palos|pavos|mangos|lana))\b/;

/** The text names a time (a date, a deadline, a duration). */
export function mentionsTime(text: string): boolean {
  return TIME.test(fold(text));
}

/** The text names money (a budget, an amount, a currency). */
export function mentionsMoney(text: string): boolean {
  return MONEY.test(text) || MONEY.test(fold(text));
}
