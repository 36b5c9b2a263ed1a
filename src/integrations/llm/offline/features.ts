import type { Analysis } from './analyze.ts';
import { ACTOR_AFTER, ACTOR_BEFORE, SECTOR_WORDS, SEGMENT_BEFORE, SEGMENT_WORDS } from './field-cues.ts';
import { PATH_CUE_PATTERNS } from './path-cues.ts';
import type { TaggedToken } from './tagger.ts';
import { fold } from './text.ts';
import type { Part } from './trained-classifier.ts';
import { PRIMARY_CHOICE, SERVICES } from './vocabulary.ts';
import { entriesOf } from './words.ts';

/**
 * What the trained models read of a message: accent-folded words and word pairs, character n-grams
 * inside words (typos, missing accents and Spanish/English cognates share most of them), the
 * bilingual word lexicon's reading of each word (synonyms beyond the training data) and the length.
 * The field models also read the hand-made analysis (`analyze.ts`): its decisions as plain features,
 * and its cue score for each value as a class-tied feature.
 */
const WORD = /[a-z0-9]+/g;
const words = (list: string) => new Set(list.split(/\s+/));
const CHAR_MIN = 3;
const CHAR_MAX = 4;

export function textFeatures(message: string, folded = fold(message)): Map<string, number> {
  // Each name's count, in the order names first appear (a Map keeps it).
  const out = new Map<string, number>();
  const add = (name: string, value: number) => out.set(name, (out.get(name) ?? 0) + value);
  let previous = '';
  WORD.lastIndex = 0;
  for (let m = WORD.exec(folded); m !== null; m = WORD.exec(folded)) {
    const word = m[0];
    const names = namesOf(word);
    add(names[0]!, 1);
    for (let j = 1; j < names.length; j++) add(names[j]!, 0.5);
    if (previous) add(`b:${previous}_${word}`, 1);
    previous = word;
  }
  // Counts are damped: a word said three times is not three times the evidence.
  out.forEach((count, name) => {
    out.set(name, Math.sqrt(count));
  });
  return out;
}

/**
 * What `indexPart(space, textFeatures(message))` gives, to the last bit (the same values, summed in
 * the same order), without making the map of a message's thousand names: a word's names are looked
 * up in the space once per word and space, and counted by their index in the space. Only the names
 * the space does not know (most word pairs) are counted by name, for the norm.
 */
export function textPartOn(space: Map<string, number>, folded: string): Part {
  const ids = idsOfSpace(space);
  const slotOf = slotsOf(space);
  // Each name's count in the order names first appear, and its space index (-1: not in the space),
  // in buffers every call reuses (this is not re-entered): growing arrays were most of a call's garbage.
  let { counts, order } = textScratch;
  let size = 0;
  let known = 0;
  const unknown = new Map<string, number>();
  const add = (name: string, id: number, value: number) => {
    const slot = id >= 0 ? slotOf[id]! : (unknown.get(name) ?? -1);
    if (slot >= 0) {
      counts[slot]! += value;
      return;
    }
    if (size === counts.length) {
      counts = grown(counts, new Float64Array(size * 2));
      order = grown(order, new Int32Array(size * 2));
      textScratch = { counts, order };
    }
    if (id >= 0) {
      slotOf[id] = size;
      known++;
    } else unknown.set(name, size);
    counts[size] = value;
    order[size++] = id;
  };
  try {
    let previous = '';
    WORD.lastIndex = 0;
    for (let m = WORD.exec(folded); m !== null; m = WORD.exec(folded)) {
      const word = m[0];
      const names = namesOf(word);
      const wordIds = wordIdsOn(ids, space, word, names);
      add(names[0]!, wordIds[0]!, 1);
      for (let j = 1; j < names.length; j++) add(names[j]!, wordIds[j]!, 0.5);
      if (previous) {
        const pair = `b:${previous}_${word}`;
        add(pair, space.get(pair) ?? -1, 1);
      }
      previous = word;
    }
  } finally {
    for (let i = 0; i < size; i++) if (order[i]! >= 0) slotOf[order[i]!] = -1;
  }
  // Counts are damped: a word said three times is not three times the evidence.
  const idx = new Int32Array(known);
  const val = new Float64Array(known);
  let n = 0;
  let squares = 0;
  for (let i = 0; i < size; i++) {
    const value = Math.sqrt(counts[i]!);
    squares += value * value;
    const id = order[i]!;
    if (id < 0) continue;
    idx[n] = id;
    val[n++] = value;
  }
  return { idx, val, squares };
}

let textScratch = { counts: new Float64Array(1024), order: new Int32Array(1024) };

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * Per feature space, a slot per index (-1: not seen yet), reused by every reading: textPartOn marks
 * the indices it meets and clears them before it returns.
 */
const spaceSlots = new WeakMap<Map<string, number>, Int32Array>();

function slotsOf(space: Map<string, number>): Int32Array {
  let slots = spaceSlots.get(space);
  if (!slots) {
    let size = 0;
    for (const index of space.values()) size = Math.max(size, index + 1);
    slots = new Int32Array(size).fill(-1);
    spaceSlots.set(space, slots);
  }
  return slots;
}

/** Per feature space, each word's names as space indices (-1: not in the space). */
const spaceWordIds = new WeakMap<Map<string, number>, Map<string, Int32Array>>();

function idsOfSpace(space: Map<string, number>): Map<string, Int32Array> {
  let ids = spaceWordIds.get(space);
  if (!ids) {
    ids = new Map();
    spaceWordIds.set(space, ids);
  }
  return ids;
}

function wordIdsOn(
  ids: Map<string, Int32Array>,
  space: Map<string, number>,
  word: string,
  names: string[],
): Int32Array {
  let found = ids.get(word);
  if (found) return found;
  found = Int32Array.from(names, (name) => space.get(name) ?? -1);
  if (ids.size < NAMES_CACHE_MAX) ids.set(word, found);
  return found;
}

const namesCache = new Map<string, string[]>();
const NAMES_CACHE_MAX = 50_000;

/** A word's feature names, made once per word: `w:word`, then its character n-grams (`c:_wo`, `c:wor`…). */
function namesOf(word: string): string[] {
  let names = namesCache.get(word);
  if (names) return names;
  names = [`w:${word}`];
  const padded = `_${word}_`;
  for (let n = CHAR_MIN; n <= CHAR_MAX; n++) {
    for (let j = 0; j + n <= padded.length; j++) names.push(`c:${padded.slice(j, j + n)}`);
  }
  if (namesCache.size < NAMES_CACHE_MAX) namesCache.set(word, names);
  return names;
}

/** The words and word pairs of a folded text alone, as textFeatures names them (a cheap reading of a clause). */
export function wordFeatures(folded: string): Map<string, number> {
  const out = new Map<string, number>();
  let previous = '';
  WORD.lastIndex = 0;
  for (let m = WORD.exec(folded); m !== null; m = WORD.exec(folded)) {
    out.set(`w:${m[0]}`, 1);
    if (previous) out.set(`b:${previous}_${m[0]}`, 1);
    previous = m[0];
  }
  return out;
}

/**
 * Features of meaning, read at their own scale (not normalised with the words): the word lexicon's
 * reading of each word (synonyms beyond the training data), the path framings of path-cues.ts, the
 * length of the message and whether it asks a question.
 */
export function meaningFeatures(message: string, folded: string, count: number): Map<string, number> {
  const out = new Map<string, number>();
  const add = (name: string, value = 1) => out.set(name, (out.get(name) ?? 0) + value);
  WORD.lastIndex = 0;
  for (let m = WORD.exec(folded); m !== null; m = WORD.exec(folded)) {
    for (const entry of entriesOf(m[0])) add(`x:${entry.target}`, entry.w / 2);
  }
  for (const [name, value] of out) out.set(name, Math.sqrt(value));
  for (const [name, re] of PATH_CUE_PATTERNS) if (re.test(folded)) out.set(`p:${name}`, 1);
  out.set(
    `len:${count <= 2 ? 1 : count <= 5 ? 2 : count <= 10 ? 3 : count <= 25 ? 4 : count <= 60 ? 5 : 6}`,
    1,
  );
  if (message.includes('?')) out.set('q', 1);
  return out;
}

const PRODUCT = words(
  'app apps site website websites web pagina portal platform plataforma system sistema store tienda shop ' +
    'backend intranet software game juego saas crm erp database tool herramienta ecommerce',
);
const POSSESSIVE = words('our my nuestra nuestro nuestras nuestros mi mis current actual existing existente');
const EXISTS = words(
  'live works funciona published publicada publicado launched lanzada lanzado production produccion running ' +
    'already ya existing existente current actual currently users usuarios',
);
const ADD = words('add adding added agregar anadir sumar incorporar extend extender integrate integrar');
const FIX = words(
  'fix fixes fixing bug bugs broken breaks breaking crash crashes crashing falla fallas fallan error errores ' +
    'arreglar arreglen arregle rompe roto caida slow lento lenta lentisimo',
);
const NEW = words('new nueva nuevo nuevas nuevos scratch cero brand first primera primer idea');
const FEATURE = words(
  'feature features functionality module modules funcion funciones funcionalidad funcionalidades modulo modulos section seccion',
);
const UNSURE = words(
  'sure unsure whether know sabemos se decide decidir conviene should or o recomiendan recommend',
);

/**
 * Concepts of the policy that a word alone does not carry: something that exists (a possessive
 * before a product, "live", "ya está"), adding to it, fixing it, something new, an open choice.
 */
export function conceptFeatures(tokens: TaggedToken[], into: Map<string, number>): Map<string, number> {
  const found = new Set<string>();
  tokens.forEach((t, i) => {
    const w = t.word;
    if (PRODUCT.has(w)) {
      const before = tokens.slice(Math.max(0, i - 2), i).map((x) => x.word);
      if (before.some((b) => POSSESSIVE.has(b))) found.add('owned-product');
    }
    if (EXISTS.has(w)) found.add('exists');
    if (ADD.has(w)) found.add('add');
    if (FIX.has(w)) found.add('fix');
    if (NEW.has(w)) found.add('new');
    if (UNSURE.has(w)) found.add('open');
    // "new features", "funciones nuevas": the policy's development support when the product exists.
    if (FEATURE.has(w)) {
      const near = tokens.slice(Math.max(0, i - 2), i + 3).map((x) => x.word);
      if (near.some((n) => NEW.has(n) || ADD.has(n))) found.add('new-feature');
    }
  });
  if ((found.has('owned-product') || found.has('exists')) && (found.has('add') || found.has('new-feature')))
    found.add('extend-existing');
  if (found.has('owned-product') && found.has('fix')) found.add('fix-existing');
  if ((found.has('owned-product') || found.has('exists')) && !found.has('new')) found.add('existing-only');
  for (const name of found) into.set(`m:${name}`, 1.5);
  return into;
}

/** The hand-made analysis's decisions, as features a field model may learn to trust. */
export function analysisFeatures(a: Analysis, into: Map<string, number>): Map<string, number> {
  const add = (name: string, value: number) => into.set(name, (into.get(name) ?? 0) + value);
  // for…in, not Object.entries: the same keys in the same order, without an array per entry.
  for (const path in a.pathScores) {
    const score = a.pathScores[path as keyof typeof a.pathScores];
    if (score > 0) add(`ap:${path}`, Math.sqrt(score));
  }
  add(`a:${a.path}`, 1.5);
  if (a.service) add(`as:${a.service}`, 1.5);
  if (a.uncertain) add('a:uncertain', 1.5);
  for (const key in a.fields) {
    const value = a.fields[key as keyof typeof a.fields];
    if (value) add(`af:${key}:${value}`, 1.5);
  }
  for (const key in a.sections) if (a.sections[key as keyof typeof a.sections].length) add(`ah:${key}`, 1);
  return into;
}

export const FIELD_TIED = 4;

interface CueIndex {
  exact: Map<string, string[]>;
  prefix: Map<string, string[]>;
  /** The lengths of the prefixes (3–14 letters), longest first: the longest prefix of a word wins. */
  prefixLengths: number[];
  /** First word → phrases starting with it. */
  phrases: Map<string, { words: string[]; value: string }[]>;
}

function cueIndex(table: Record<string, string>): CueIndex {
  const index: CueIndex = { exact: new Map(), prefix: new Map(), prefixLengths: [], phrases: new Map() };
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    map.set(key, list);
  };
  for (const [value, entries] of Object.entries(table)) {
    for (const entry of entries.split(/\s+/)) {
      if (!entry) continue;
      if (entry.includes('_')) {
        const words = entry.split('_');
        const list = index.phrases.get(words[0]!) ?? [];
        list.push({ words, value });
        index.phrases.set(words[0]!, list);
      } else if (entry.endsWith('*')) add(index.prefix, entry.slice(0, -1), value);
      else add(index.exact, entry, value);
    }
  }
  const lengths = new Set([...index.prefix.keys()].map((key) => key.length));
  index.prefixLengths = [...lengths].filter((n) => n >= 3 && n <= 14).sort((a, b) => b - a);
  return index;
}

export interface CueHit {
  value: string;
  /** Token range [first, last]. */
  first: number;
  last: number;
}

/** Every cue of `index` in the tokens: phrases first, then single words (exact, plural, stem). */
function cueHits(tokens: TaggedToken[], index: CueIndex): CueHit[] {
  const hits: CueHit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const word = tokens[i]!.word;
    let matched = 0;
    for (const phrase of index.phrases.get(word) ?? []) {
      const n = phrase.words.length;
      if (i + n > tokens.length) continue;
      let ok = true;
      for (let j = 1; j < n && ok; j++) {
        const w = tokens[i + j]!.word;
        const want = phrase.words[j]!;
        ok = w === want || (j === n - 1 && (w === `${want}s` || w === `${want}es`));
      }
      if (ok) {
        hits.push({ value: phrase.value, first: i, last: i + n - 1 });
        matched = Math.max(matched, n);
      }
    }
    if (matched === 0) {
      const exact =
        index.exact.get(word) ??
        (word.length > 3 && word.endsWith('s') ? index.exact.get(word.slice(0, -1)) : undefined) ??
        (word.length > 4 && word.endsWith('es') ? index.exact.get(word.slice(0, -2)) : undefined);
      let prefixed: string[] | undefined;
      for (const n of index.prefixLengths) {
        if (n > word.length) continue;
        prefixed = index.prefix.get(word.slice(0, n));
        if (prefixed) break;
      }
      // Each list holds a value once; only both together need their values made unique.
      const values = exact && prefixed ? new Set([...exact, ...prefixed]) : (exact ?? prefixed ?? []);
      for (const value of values) hits.push({ value, first: i, last: i });
    }
    i += Math.max(matched, 1);
  }
  return hits;
}

const SECTORS = cueIndex(SECTOR_WORDS);
const SEGMENTS = cueIndex(SEGMENT_WORDS);
const SEGMENT_BEFORE_WORDS = words(SEGMENT_BEFORE);
const ACTOR_AFTER_WORDS = words(ACTOR_AFTER);
const ACTOR_BEFORE_WORDS = words(ACTOR_BEFORE);
/** Words opening a clause in which visitors describe themselves ("we are", "somos", "our clinic"). */
const SELF_WORDS = words(
  'we we re were i im i m our my us run own somos soy tenemos tengo nuestro nuestra nuestros nuestras mi mis ' +
    'nos here aqui',
);
/** Words after which a sector is the visitor's customers' ("software for restaurants", "vendemos a clínicas"). */
const FOR_OTHERS = words('for para helps ayuda to a sell sells vendemos le clients clientes customers');

export interface FieldEvidence {
  sectors: CueHit[];
  segments: CueHit[];
}

export function fieldEvidence(tokens: TaggedToken[]): FieldEvidence {
  return { sectors: cueHits(tokens, SECTORS), segments: cueHits(tokens, SEGMENTS) };
}

/**
 * Class-tied features of a field, `FIELD_TIED` per value (the `null` class has none). Industry: the
 * sector words in a clause where visitors describe themselves, elsewhere, and after "for"/"sell to"
 * (their customers' sector), then whether the analysis chose the value. Audience: segment words
 * addressed ("for teenagers"), segment words as actors ("patients can book"), others, the analysis.
 * The other fields: the analysis's cue score and choice. One weight per feature is learnt across all
 * values, so a sector word seen for no training example still counts for its value.
 */
export function fieldTied(
  key: string,
  classes: readonly string[],
  a: Analysis,
  tokens: TaggedToken[],
  evidence: FieldEvidence,
): Float64Array {
  const out = new Float64Array(classes.length * FIELD_TIED);
  const chosen = (a.fields as unknown as Record<string, string | null>)[key];
  const at = (value: string) => classes.indexOf(value) * FIELD_TIED;
  if (key === 'industry') {
    const clauseOpen = new Map<number, boolean>();
    tokens.forEach((t, i) => {
      if (clauseOpen.has(t.clause)) return;
      let self = t.clause === 0;
      for (let j = i; j < Math.min(i + 3, tokens.length) && !self; j++)
        self = SELF_WORDS.has(tokens[j]!.word);
      clauseOpen.set(t.clause, self);
    });
    for (const hit of evidence.sectors) {
      const c = at(hit.value);
      if (c < 0) continue;
      const before = tokens.slice(Math.max(0, hit.first - 2), hit.first).map((t) => t.word);
      if (before.some((w) => FOR_OTHERS.has(w))) out[c + 2]! += 1;
      else if (clauseOpen.get(tokens[hit.first]!.clause)) out[c]! += 1;
      else out[c + 1]! += 1;
    }
  } else if (key === 'audience') {
    for (const hit of evidence.segments) {
      const c = at(hit.value);
      if (c < 0) continue;
      const before = tokens.slice(Math.max(0, hit.first - 3), hit.first).map((t) => t.word);
      const after = tokens.slice(hit.last + 1, hit.last + 3).map((t) => t.word);
      const actor =
        after.some((w) => ACTOR_AFTER_WORDS.has(w)) ||
        before.slice(-2).some((w) => ACTOR_BEFORE_WORDS.has(w));
      if (actor) out[c + 1]! += 1;
      else if (before.some((w) => SEGMENT_BEFORE_WORDS.has(w))) out[c]! += 1;
      else out[c + 2]! += 1;
    }
  } else {
    classes.forEach((value, c) => {
      if (value === 'null') return;
      let score = 0;
      if (key === 'initialChoice') {
        for (const s of SERVICES) if (PRIMARY_CHOICE[s] === value) score += a.scores.service[s];
        if (value === 'advice') score += a.scores.advice;
      } else {
        score = (a.scores as unknown as Record<string, Record<string, number>>)[key]?.[value] ?? 0;
      }
      out[c * FIELD_TIED] = Math.sqrt(score);
    });
  }
  for (let c = 0; c < classes.length; c++) {
    for (let j = 0; j < FIELD_TIED - 1; j++) out[c * FIELD_TIED + j] = Math.sqrt(out[c * FIELD_TIED + j]!);
    if (classes[c] !== 'null' && chosen === classes[c]) out[c * FIELD_TIED + FIELD_TIED - 1] = 1;
  }
  return out;
}
