import { sliceWhole } from '../../../text/slice-whole.ts';

/**
 * Text helpers of the offline engine. `fold` maps every character to exactly one character
 * (lower case, accents removed, anything but letters and digits → space), so an index found in the
 * folded text is the same index in the original: matches can be quoted in the visitor's own words.
 */
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_ALNUM = /[^a-z0-9]/g;

export function fold(text: string): string {
  // Plain ASCII (most messages): native lower-casing and one replace, same result as the loop.
  if (!NON_ASCII.test(text)) return text.toLowerCase().replace(NOT_ALNUM, ' ');
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) out += text[i];
      else if (code >= 65 && code <= 90) out += String.fromCharCode(code + 32);
      else out += ' ';
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += ' '; // each half of an astral character (emoji…) becomes one space
    } else {
      out += foldChar(text[i]!);
    }
  }
  return out;
}

const foldedChars = new Map<string, string>();

/** One non-ASCII BMP character folded to one character (`é` → `e`, `Ñ` → `n`, `€` → space). */
function foldChar(ch: string): string {
  let folded = foldedChars.get(ch);
  if (folded === undefined) {
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    folded = base.length === 1 && /[a-z0-9]/.test(base) ? base : ' ';
    if (foldedChars.size < 4096) foldedChars.set(ch, folded);
  }
  return folded;
}

/** Folds for search: like `fold`, with whitespace collapsed. */
export function foldForSearch(text: string): string {
  return fold(text).replace(/\s+/g, ' ').trim();
}

export interface Fragment {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits a message into clauses at sentence punctuation and at the conjunctions that usually start
 * a new idea (but, and then, also / pero, y luego, además). Each fragment keeps its offsets.
 */
export function fragments(message: string): Fragment[] {
  const out: Fragment[] = [];
  // Non-ASCII characters of regular expressions are written escaped: the server bundle stays ASCII
  // (scripts/build-server.test.ts).
  const boundary =
    /[.!?;:\n]+|,\s*|\s+(?:but|and then|also|then|pero|y luego|adem\u00e1s|ademas|aunque)\s+/giu;
  let last = 0;
  for (const match of message.matchAll(boundary)) {
    push(out, message, last, match.index);
    last = match.index + match[0].length;
  }
  push(out, message, last, message.length);
  return out;
}

function push(out: Fragment[], message: string, start: number, end: number) {
  const raw = message.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const text = raw
    .trim()
    .replace(/^[-\u2013\u2014\u2022*"'\u201c\u201d\u00bf\u00a1(]+\s*/u, '')
    .replace(/[\s"'\u201c\u201d)]+$/u, '');
  if (text.length > 1) out.push({ text, start: start + lead, end });
}

const LEAD_INS = new RegExp(
  `^(?:${[
    'hi there|hello there|hey there|hi|hello|hey|hola|buenas|buenos dias|che|parce|oye|mira',
    'we need|we want|we would like|we d like|i need|i want|i d like|i would like|looking for|we are looking for|i m looking for',
    'necesitamos|necesito|queremos|quiero|buscamos|busco|nos gustaria|me gustaria',
  ].join('|')})\\b[\\s,]*`,
);

/** A fragment with its conversational lead-in removed ("we need a new site" → "a new site"). */
export function trimLeadIn(text: string): string {
  let current = text;
  for (let i = 0; i < 3; i++) {
    const match = LEAD_INS.exec(fold(current));
    if (!match || match[0].length === 0) break;
    current = current.slice(match[0].length);
  }
  const trimmed = current.trim();
  return trimmed.length > 1 ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : text;
}

/** Cuts `text` to at most `max` characters, at a word boundary when one is near, with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = sliceWhole(text, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const NEGATION = /\b(?:not|no|nothing|without|never|nada|sin|ni|nunca)\s+(?:\w+\s+){0,1}$/;

/** True when the word at `index` of the folded text is negated ("nothing corporate", "sin colores"). */
export function negatedAt(folded: string, index: number): boolean {
  return NEGATION.test(folded.slice(Math.max(0, index - 24), index));
}

/** Text that stands for nothing (a model's or a form's filler); the post-processing drops it. */
const PLACEHOLDER = new RegExp(
  `^(?:${[
    'none|none mentioned|none specified|none provided|nothing|nothing mentioned|no|nil|null|undefined|unknown|n ?a|na|tbd|tbc|to be determined|to be confirmed|not specified|not mentioned|not provided|not applicable|not available|not stated|no information|no info|no details|unspecified|pending|todo|placeholder|example|sample|string|text|lorem ipsum.*|x+|etc',
    'ninguno|ninguna|ningun|ninguno mencionado|ninguna mencionada|ninguno especificado|ninguna especificada|nada|nada mencionado|no aplica|no aplicable|no disponible|no especificado|no especificada|no mencionado|no mencionada|no se menciona|no se especifica|no indicado|no indicada|no proporcionado|no proporcionada|no definido|no definida|sin definir|indefinido|indefinida|nulo|sin informacion|no hay informacion|sin datos|no hay datos|sin detalles|sin especificar|desconocido|desconocida|por definir|a definir|por determinar|a determinar|por confirmar|a confirmar|por concretar|pendiente|n d|nd|ejemplo|texto',
  ].join('|')})$`,
);

/** "none mentioned", "N/A", "TBD", "—", "ninguno", "por definir", "<signal>", "[item]"… */
export function isPlaceholder(text: string): boolean {
  if (text.length > 60) return /^\s*lorem ipsum/i.test(text); // every placeholder is short
  if (/^\s*[<[{(].*[>\]})]\s*$/.test(text)) return true; // template slots such as <signal> or [item]
  const folded = fold(text).replace(/\s+/g, ' ').trim();
  return folded === '' || PLACEHOLDER.test(folded);
}
