import { fold } from '../text.ts';
import {
  DISPOSABLE_MAIL,
  FIRM_DOMAIN,
  FREE_MAIL,
  MAKER_TITLE,
  ODD_TLDS,
  OWNER_TITLE,
  SALES_MAILBOX,
  SALES_TITLE,
  SPAM_SIGNS,
  TEXT_CUES,
  VENDOR_SIGNS,
} from './cues.ts';

/**
 * The features of a submission, shared by the trainer and the classifier: words and word pairs of
 * the free text, character n-grams of its words (so `backlink`, `backlinks` and `backlinksss` share
 * evidence, in both languages and with typos), words of the company, job title and mail domain, the
 * cues of cues.ts, and structural facts (links, money, shouting, handles, mail kind, titles, length).
 * Text is folded first: lower case, accents removed.
 */
export interface Submission {
  name: string;
  email: string;
  company?: string | null;
  position?: string | null;
  phone?: string | null;
  /** Free text the visitor wrote (goal, features, subject, message). */
  texts: string[];
}

/** How text becomes features; stored with the weights, so training and prediction agree. */
export interface FeatureOptions {
  /** Word pairs besides single words. */
  wordPairs: boolean;
  /** Smallest and largest character n-gram inside a word (0 for none). */
  charMin: number;
  charMax: number;
  /** Scale of each lexical block (its vector has this length). */
  wordScale: number;
  charScale: number;
  /** Value of a cue or structural feature. */
  cueScale: number;
}

export interface Features {
  /** Feature key → value. */
  values: Map<string, number>;
  /**
   * Character n-grams (without their `c:` key prefix, to spare a string per n-gram) → the word they
   * came from; each has the value `charValue`.
   */
  chars: Map<string, string>;
  charValue: number;
}

/** Key prefix of character n-gram features in the weights. */
export const CHAR_PREFIX = 'c:';

/** Text beyond this many characters is not read: it bounds the time of a decision. */
export const MAX_TEXT_CHARS = 2000;

/** Longer runs without a space are neither links nor addresses: they are not matched against. */
const MAX_CHUNK = 300;
const CHUNK = /\S+/g;
const LINK_START = /(?:https?:\/\/|www\.)/i;
const BARE_LINK =
  /^[("'<]*[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|ru|xyz|top|info|biz|online|site|me|ly|in|mx|ar|cl|pe|es|uk|app|dev|shop|store|blog|click|services)(?:\.[a-z]{2})?\//i;
const MAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const AT_HANDLE = /^@[A-Za-z0-9_.]{3,}/;
const MESSENGER =
  /(?:t\.me|wa\.me|telegram\.me)\/\S+|(?:telegram|whats ?app|wsp|wpp|whats|signal|skype|wechat)\s*(?:[:：]|at|al|@|me|number|numero)?\s*(?:@\w+|\+?\(?\d[\d\s().-]{6,})/i;
const MONEY =
  /(?:[$€£]|\b(?:usd|us\$|mxn|cop|ars|clp|pen|eur|gbp|inr|rs)\.?)\s?\d|\d[\d.,]*\s?(?:k\b|mil\b)?\s?(?:usd|mxn|cop|ars|clp|pen|eur|gbp|€|dolares|dollars|pesos|euros|soles|lucas|palos)\b/gi;
const RATE =
  /(?:per|por|a|each|cada|\/)\s?(?:hour|hora|hr|h|month|mes|link|enlace|post|article|articulo|nota|lead|cita|appointment|developer|dev|desarrollador)\b/i;
const EMOJI = /\p{Extended_Pictographic}/gu;
/** The public suffix of a host: `.com`, `.com.mx`, `.co.uk`. */
const SUFFIX = /(?:\.(?:com|co|org|net|gob|gov|edu|ac|nom))?\.[a-z]+$/i;
const DIGITS = /^\d+$/;

export function extractFeatures(input: Submission, options: FeatureOptions): Features {
  const values = new Map<string, number>();
  const raw = input.texts.filter(Boolean).join('\n').slice(0, MAX_TEXT_CHARS);
  const signs: string[] = [];
  const cue = (id: string) => {
    values.set(`s:${id}`, options.cueScale);
    signs.push(id);
  };

  // Placeholders keep links, addresses and handles as one token each before folding; the words of
  // linked hosts (`casino-bono.fun` → casino, bono) are evidence too.
  const hosts: string[] = [];
  const marked = raw
    .replace(CHUNK, (chunk) => {
      if (chunk.length > MAX_CHUNK) return chunk;
      const link = LINK_START.exec(chunk);
      if (link || BARE_LINK.test(chunk)) {
        const host = chunk.slice(link?.index ?? 0).replace(/^[("'<]*(?:https?:\/\/)?(?:www\.)?/i, '');
        hosts.push(fold(host.split(/[/?#>"')]/)[0]!.replace(SUFFIX, '')));
        return ' xurlx ';
      }
      if (!chunk.includes('@')) return chunk;
      if (AT_HANDLE.test(chunk)) return ' xhandlex ';
      return chunk.replace(MAIL, ' xmailx ');
    })
    .replace(MONEY, ' xmoneyx ');
  const urls = hosts.length;
  const hostWords = hosts.join(' ');
  const folded = fold(marked);
  const tokens = folded.split(' ').filter(Boolean);
  const plain = tokens.filter((t) => !DIGITS.test(t));

  // Lexical block 1: words (and word pairs), the value of each 1/sqrt(count) times the scale.
  const wordKeys = new Set<string>();
  let previous = '';
  for (const token of tokens) {
    const word = DIGITS.test(token) ? 'xnumx' : token;
    wordKeys.add(`w:${word}`);
    if (options.wordPairs && previous) wordKeys.add(`b:${previous} ${word}`);
    previous = word;
  }
  addBlock(values, wordKeys, options.wordScale);

  // Lexical block 2: character n-grams inside each word.
  const chars = new Map<string, string>();
  if (options.charMin > 0) {
    for (const token of plain) {
      if (PLACEHOLDERS.has(token)) continue;
      const padded = ` ${token} `;
      for (let n = options.charMin; n <= options.charMax; n++) {
        for (let i = 0; i + n <= padded.length; i++) {
          const gram = padded.slice(i, i + n);
          if (!chars.has(gram)) chars.set(gram, token);
        }
      }
    }
  }
  const charValue = chars.size > 0 ? options.charScale / Math.sqrt(chars.size) : 0;

  // Company, title and mail-domain words, each its own namespace.
  const orgKeys = new Set<string>();
  for (const token of fold(`${input.company ?? ''} ${input.position ?? ''}`).split(' ')) {
    if (token && !DIGITS.test(token)) orgKeys.add(`o:${token}`);
  }
  const email = input.email.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const local = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at + 1) : '';
  const domainParts = domain.split('.');
  const domainName = domain.replace(SUFFIX, '');
  for (const token of fold(domainName).split(' ')) {
    if (token && !DIGITS.test(token)) orgKeys.add(`d:${token}`);
  }
  for (const token of hostWords.split(' ')) {
    if (token && !DIGITS.test(token)) orgKeys.add(`u:${token}`);
  }
  addBlock(values, orgKeys, options.wordScale);

  // Cues over the folded text (with a space at each end so cues can anchor on whole words).
  const text = ` ${`${folded} ${hostWords}`.replace(/\s+/g, ' ')} `;
  for (const c of TEXT_CUES) {
    if (!c.pattern.test(text)) continue;
    values.set(`q:${c.id}`, options.cueScale);
    signs.push(c.id);
  }

  // Links and what the text is made of.
  if (urls === 1) cue('links-1');
  else if (urls === 2) cue('links-2');
  else if (urls >= 3) cue('links-3');
  if (urls > 0 && urls * 3 >= plain.length) cue('mostly-links');
  if (raw.search(MONEY) >= 0) cue('money');
  if (RATE.test(folded)) cue('rate');
  const letters = raw.replace(/[^\p{L}]/gu, '');
  const capitals = letters.replace(/[^\p{Lu}]/gu, '').length;
  if (letters.length >= 12 && capitals / letters.length > 0.45) cue('shouting');
  if ((raw.match(/!/g)?.length ?? 0) >= 3) cue('exclaims');
  if ((raw.match(EMOJI)?.length ?? 0) >= 2) cue('emoji');
  if (MESSENGER.test(raw)) cue('handle');
  if (tokens.includes('xhandlex')) cue('at-handle');
  if (tokens.includes('xmailx')) cue('mail-in-text');
  if (looksGibberish(raw, plain)) cue('gibberish');
  if (isOnlyTest(plain)) cue('test');
  if (repeats(plain)) cue('repeats');
  if (plain.length <= 4) cue('tiny');
  else if (plain.length <= 15) cue('short');
  else if (plain.length > 90) cue('long');

  // The sender: mail address, company, title, name.
  if (DISPOSABLE_MAIL.has(domain)) cue('mail-disposable');
  else if (FREE_MAIL.has(domain)) cue('mail-free');
  else if (domain) {
    cue('mail-company');
    const company = fold(input.company ?? '').replace(/\s+/g, '');
    const label = fold(domainParts[0] ?? '').replace(/\s+/g, '');
    if (company.length >= 3 && label.length >= 3 && (company.includes(label) || label.includes(company)))
      cue('mail-matches-company');
  }
  if (SALES_MAILBOX.test(local)) cue('mail-sales');
  if (domain && !FREE_MAIL.has(domain) && FIRM_DOMAIN.test(domainName)) cue('mail-firm');
  if (ODD_TLDS.has(domainParts.at(-1) ?? '')) cue('mail-odd-tld');
  if ((local.match(/\d/g)?.length ?? 0) >= 4) cue('mail-digits');
  const position = ` ${fold(input.position ?? '')} `;
  if (SALES_TITLE.test(position)) cue('title-sales');
  if (OWNER_TITLE.test(position)) cue('title-owner');
  if (MAKER_TITLE.test(position)) cue('title-maker');
  const name = input.name.trim();
  const nameLetters = name.replace(/[^\p{L}]/gu, '');
  if (nameLetters.length >= 4 && nameLetters === nameLetters.toUpperCase()) cue('name-caps');
  if (/https?:|www\.|\.(?:com|net|ru|xyz|top)\b/i.test(name)) cue('name-link');
  if (/\d/.test(name)) cue('name-digits');
  if (name && !/\s/.test(name)) cue('name-one-word');
  if (/[a-z][A-Z]|[bcdfghjklmnpqrstvwxz]{5}/.test(name)) cue('name-odd');

  if (!signs.some((id) => SPAM_SIGNS.has(id))) cue('no-spam-sign');
  if (!signs.some((id) => VENDOR_SIGNS.has(id))) cue('no-vendor-sign');
  return { values, chars, charValue };
}

const PLACEHOLDERS = new Set(['xurlx', 'xmailx', 'xhandlex', 'xmoneyx']);

/** Words of a form filled in to try it ("test test", "prueba", "asdf"). */
const TEST_MARKERS = new Set([
  'test',
  'testing',
  'tests',
  'prueba',
  'pruebas',
  'probando',
  'asdf',
  'asd',
  'qwerty',
  'lorem',
  'ipsum',
  'xxx',
  'aaa',
]);
const TEST_FILLERS = new Set(
  'hola hello hi ok abc xnumx this is a an the of el la de del es esto una un form formulario contact contacto message mensaje please ignore ignorar favor por just solo only'.split(
    ' ',
  ),
);

/** Folded words that are all test words or fillers, with at least one test word. */
export function isOnlyTest(words: string[]): boolean {
  return (
    words.some((w) => TEST_MARKERS.has(w)) && words.every((w) => TEST_MARKERS.has(w) || TEST_FILLERS.has(w))
  );
}

/** Random letters: mixed case inside words, long consonant runs, or words with no vowel. */
function looksGibberish(raw: string, plain: string[]): boolean {
  if (plain.length === 0) return false;
  let mixed = 0;
  for (const chunk of raw.match(CHUNK) ?? []) {
    if (chunk.length <= 40 && /[a-z][A-Z][a-z]*[A-Z]/.test(chunk)) mixed++;
  }
  if (mixed >= 2) return true;
  let odd = 0;
  for (const token of plain) {
    if (token.length >= 4 && (!/[aeiouy]/.test(token) || /[bcdfghjklmnpqrstvwxz]{5}/.test(token))) odd++;
  }
  return odd >= 2 && odd * 3 >= plain.length;
}

/** Keyword stuffing: a few words make up much of a text of some length. */
function repeats(plain: string[]): boolean {
  if (plain.length < 12) return false;
  const counts = new Map<string, number>();
  for (const t of plain) if (t.length > 3) counts.set(t, (counts.get(t) ?? 0) + 1);
  let top = 0;
  for (const n of counts.values()) top = Math.max(top, n);
  return top >= 4 && top * 8 >= plain.length;
}

function addBlock(values: Map<string, number>, keys: Set<string>, scale: number): void {
  if (keys.size === 0 || scale === 0) return;
  const value = scale / Math.sqrt(keys.size);
  for (const key of keys) values.set(key, value);
}
