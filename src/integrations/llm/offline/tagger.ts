import { rolesOf } from './section-cues.ts';
import { fold } from './text.ts';
import type { BinaryTable } from './trained-classifier.ts';
import type { SectionKey } from './vocabulary.ts';
import { entriesOf } from './words.ts';

/**
 * Phrase extraction for refine's sections: every word of the message is read with its neighbours,
 * its place in the clause and the punctuation around it, and a trained classifier per section says
 * whether the word belongs to a phrase of that section ("online orders for cakes" is features,
 * "Budget is around £3,000" constraints). Runs of such words are the section's items, cut from the
 * visitor's own text.
 */
export interface TaggedToken {
  word: string;
  start: number;
  end: number;
  /** Index of the clause (split at . ! ? ; : , and line breaks). */
  clause: number;
  /** Index of the sentence (split at . ! ? and line breaks). */
  sentence: number;
  /** The punctuation between the previous word and this one ('' when only spaces). */
  before: string;
}

const WORD = /[a-z0-9]+/g;
const SPACES_ONLY = /^\s*$/;

export function tagTokens(message: string, folded = fold(message)): TaggedToken[] {
  const out: TaggedToken[] = [];
  let clause = 0;
  let sentence = 0;
  let last = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(folded); m !== null; m = WORD.exec(folded)) {
    const gap = message.slice(last, m.index);
    const before = SPACES_ONLY.test(gap) ? '' : gap.replace(/\s+/g, '');
    if (out.length > 0) {
      if (/[.!?\n]/.test(gap.replace(/\.(?=\d)/g, ''))) {
        sentence++;
        clause++;
      } else if (/[;:,()]/.test(gap)) clause++;
    }
    out.push({ word: m[0], start: m.index, end: m.index + m[0].length, clause, sentence, before });
    last = m.index + m[0].length;
  }
  return out;
}

const MONTHS =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|q[1-4])$/;

/** A word's feature names in every position, made once per word (answers allocate few strings). */
interface WordForms {
  own: string[];
  before1: string[];
  after1: string[];
  before2: string;
  after2: string;
  clauseWord: string;
  leadWord: string;
  lateWord: string;
  sentenceWord: string;
  roleBefore: string[];
  roleInClause: string[];
  roles: string[];
}

const formsCache = new Map<string, WordForms>();
const FORMS_CACHE_MAX = 50_000;

function formsOf(word: string): WordForms {
  let forms = formsCache.get(word);
  if (forms) return forms;
  const targets = entriesOf(word).map((e) => e.target);
  const roles = rolesOf(word);
  forms = {
    own: [
      `w:${word}`,
      `p:${word.slice(0, 4)}`,
      `s:${word.slice(-3)}`,
      ...targets.map((x) => `x:${x}`),
      ...roles.map((r) => `r:${r}`),
      ...(/\d/.test(word) ? ['num'] : []),
      ...(MONTHS.test(word) ? ['month'] : []),
    ],
    before1: [`w-1:${word}`, ...targets.map((x) => `x-1:${x}`), ...roles.map((r) => `r-1:${r}`)],
    after1: [`w+1:${word}`, ...targets.map((x) => `x+1:${x}`), ...roles.map((r) => `r+1:${r}`)],
    before2: `w-2:${word}`,
    after2: `w+2:${word}`,
    clauseWord: `c0:${word}`,
    leadWord: `cw:${word}`,
    lateWord: `lw:${word}`,
    sentenceWord: `s0:${word}`,
    roleBefore: roles.map((r) => `rb:${r}`),
    roleInClause: [...roles.map((r) => `rc:${r}`), ...(/\d/.test(word) ? ['rc:number'] : [])],
    roles,
  };
  if (formsCache.size < FORMS_CACHE_MAX) formsCache.set(word, forms);
  return forms;
}

const EDGE = { before1: ['w-1:|'], after1: ['w+1:|'], before2: 'w-2:|', after2: 'w+2:|' };

/** The features of every token, as distinct names (shared by training and answering). */
export function tokenFeatures(message: string, tokens: TaggedToken[]): string[][] {
  const forms = tokens.map((t) => formsOf(t.word));
  const out: string[][] = [];
  let clauseStart = 0;
  let sentenceStart = 0;
  let clauseEnd = -1;
  let inClause: Set<string> = new Set();
  // The roles of the clause's words so far (kept as the clause is read: a long clause stays linear).
  let rolesBefore: Set<string> = new Set();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (i === 0 || t.clause !== tokens[i - 1]!.clause) {
      clauseStart = i;
      clauseEnd = i;
      while (clauseEnd + 1 < tokens.length && tokens[clauseEnd + 1]!.clause === t.clause) clauseEnd++;
      // The roles present anywhere in the clause ("budget" anywhere makes "around £3,000" a constraint).
      inClause = new Set();
      for (let j = clauseStart; j <= clauseEnd; j++)
        for (const name of forms[j]!.roleInClause) inClause.add(name);
      rolesBefore = new Set();
    }
    if (i === 0 || t.sentence !== tokens[i - 1]!.sentence) sentenceStart = i;
    const f = new Set<string>(forms[i]!.own);
    const add = (names: string[]) => {
      for (const name of names) f.add(name);
    };
    add(i - 1 >= clauseStart ? forms[i - 1]!.before1 : EDGE.before1);
    add(i + 1 <= clauseEnd ? forms[i + 1]!.after1 : EDGE.after1);
    f.add(i - 2 >= clauseStart ? forms[i - 2]!.before2 : EDGE.before2);
    f.add(i + 2 <= clauseEnd ? forms[i + 2]!.after2 : EDGE.after2);
    f.add(`b-:${tokens[i - 1]?.word ?? '<s>'}_${t.word}`);
    f.add(`b+:${t.word}_${tokens[i + 1]?.word ?? '</s>'}`);
    f.add(`cpos:${Math.min(i - clauseStart, 4)}`);
    f.add(forms[clauseStart]!.clauseWord);
    f.add(`c01:${tokens[clauseStart]!.word}_${tokens[clauseStart + 1]?.word ?? '</s>'}`);
    f.add(forms[sentenceStart]!.sentenceWord);
    if (t.before) f.add(`pb:${t.before.slice(-1)}`);
    if (i === clauseEnd) f.add('clause-end');
    if (i !== sentenceStart && /^\p{Lu}/u.test(message.slice(t.start, t.start + 2))) f.add('cap');
    if (/[$€£]/.test(message.slice(Math.max(0, t.start - 2), t.end + 2))) f.add('money');
    for (const name of inClause) f.add(name);
    for (const name of rolesBefore) f.add(name);
    for (const name of forms[i]!.roleBefore) rolesBefore.add(name);
    // The words that open the clause carry its role: "so that", "para que", "we are", "budget".
    for (let j = clauseStart; j < Math.min(clauseStart + 3, i); j++) f.add(forms[j]!.leadWord);
    for (let j = Math.max(clauseStart, i - 4); j < i - 2; j++) f.add(forms[j]!.lateWord);
    out.push([...f]);
  }
  return out;
}

/**
 * The section table's reading of every token, `keys` probabilities per token (row-major), without
 * naming the features: what `binaryProbabilities(table, tokenFeatures(…)[i])` gives, to the last bit
 * (the same features, distinct, summed in the same order), but looked up as numbers cached per word
 * and table, so a call allocates a few arrays instead of thousands of strings.
 */
export function tokenProbabilities(table: BinaryTable, message: string, tokens: TaggedToken[]): Float64Array {
  const k = table.keys.length;
  const out = new Float64Array(tokens.length * k);
  if (tokens.length === 0) return out;
  const ids = idsFor(table);
  const forms = tokens.map((t) => wordIdsOf(ids, t.word));
  const { vocab, w, b } = table;
  let clauseStart = 0;
  let sentenceStart = 0;
  let clauseEnd = -1;
  // The clause's roles (rc:) and the roles of the words read so far (rb:), distinct, in order.
  const inClause: number[] = [];
  const inClauseNames = new Set<string>();
  const rolesBefore: number[] = [];
  const rolesBeforeNames = new Set<string>();
  let c01 = -1;
  let at = 0;
  // No currency sign in the message: none near any word.
  const hasMoney = /[$€£]/.test(message);
  const add = (j: number) => {
    if (j < 0) return;
    const base = j * k;
    for (let c = 0; c < k; c++) out[at + c]! += w[base + c]!;
  };
  const addAll = (js: Int32Array) => {
    for (let n = 0; n < js.length; n++) add(js[n]!);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (i === 0 || t.clause !== tokens[i - 1]!.clause) {
      clauseStart = i;
      clauseEnd = i;
      while (clauseEnd + 1 < tokens.length && tokens[clauseEnd + 1]!.clause === t.clause) clauseEnd++;
      inClause.length = 0;
      inClauseNames.clear();
      for (let j = clauseStart; j <= clauseEnd; j++) {
        const names = forms[j]!.roleInClauseNames;
        for (let n = 0; n < names.length; n++) {
          if (inClauseNames.has(names[n]!)) continue;
          inClauseNames.add(names[n]!);
          inClause.push(forms[j]!.roleInClause[n]!);
        }
      }
      rolesBefore.length = 0;
      rolesBeforeNames.clear();
      c01 = vocab.get(`c01:${tokens[clauseStart]!.word}_${tokens[clauseStart + 1]?.word ?? '</s>'}`) ?? -1;
    }
    if (i === 0 || t.sentence !== tokens[i - 1]!.sentence) sentenceStart = i;
    at = i * k;
    const f = forms[i]!;
    let count = f.ownCount;
    addAll(f.own);
    if (i - 1 >= clauseStart) {
      addAll(forms[i - 1]!.before1);
      count += forms[i - 1]!.before1Count;
    } else {
      add(ids.edgeBefore1);
      count++;
    }
    if (i + 1 <= clauseEnd) {
      addAll(forms[i + 1]!.after1);
      count += forms[i + 1]!.after1Count;
    } else {
      add(ids.edgeAfter1);
      count++;
    }
    add(i - 2 >= clauseStart ? forms[i - 2]!.before2 : ids.edgeBefore2);
    add(i + 2 <= clauseEnd ? forms[i + 2]!.after2 : ids.edgeAfter2);
    add(vocab.get(`b-:${tokens[i - 1]?.word ?? '<s>'}_${t.word}`) ?? -1);
    add(vocab.get(`b+:${t.word}_${tokens[i + 1]?.word ?? '</s>'}`) ?? -1);
    add(ids.cpos[Math.min(i - clauseStart, 4)]!);
    add(forms[clauseStart]!.clauseWord);
    add(c01);
    add(forms[sentenceStart]!.sentenceWord);
    count += 8;
    if (t.before) {
      add(ids.punctuation(t.before.slice(-1)));
      count++;
    }
    if (i === clauseEnd) {
      add(ids.clauseEnd);
      count++;
    }
    if (i !== sentenceStart && startsUpper(message, t.start)) {
      add(ids.cap);
      count++;
    }
    if (hasMoney && /[$€£]/.test(message.slice(Math.max(0, t.start - 2), t.end + 2))) {
      add(ids.money);
      count++;
    }
    for (let n = 0; n < inClause.length; n++) add(inClause[n]!);
    count += inClause.length;
    for (let n = 0; n < rolesBefore.length; n++) add(rolesBefore[n]!);
    count += rolesBefore.length;
    const names = f.roleBeforeNames;
    for (let n = 0; n < names.length; n++) {
      if (rolesBeforeNames.has(names[n]!)) continue;
      rolesBeforeNames.add(names[n]!);
      rolesBefore.push(f.roleBefore[n]!);
    }
    // Leading and late words of the clause, each word once (a Set of names in tokenFeatures).
    const leadTo = Math.min(clauseStart + 3, i);
    for (let j = clauseStart; j < leadTo; j++) {
      let seen = false;
      for (let m = clauseStart; m < j && !seen; m++) seen = tokens[m]!.word === tokens[j]!.word;
      if (seen) continue;
      add(forms[j]!.leadWord);
      count++;
    }
    const lateFrom = Math.max(clauseStart, i - 4);
    for (let j = lateFrom; j < i - 2; j++) {
      let seen = false;
      for (let m = lateFrom; m < j && !seen; m++) seen = tokens[m]!.word === tokens[j]!.word;
      if (seen) continue;
      add(forms[j]!.lateWord);
      count++;
    }
    const scale = 1 / Math.sqrt(count || 1);
    for (let c = 0; c < k; c++) out[at + c] = 1 / (1 + Math.exp(-(out[at + c]! * scale + b[c]!)));
  }
  return out;
}

/** Whether the character at `at` is an upper-case letter: `/^\p{Lu}/u`, without a slice for ASCII. */
function startsUpper(message: string, at: number): boolean {
  const code = message.charCodeAt(at);
  if (code < 0x80) return code >= 0x41 && code <= 0x5a;
  return /^\p{Lu}/u.test(message.slice(at, at + 2));
}

/** A word's features as the table's indices (-1: unknown), distinct within each group, with their counts. */
interface WordIds {
  own: Int32Array;
  ownCount: number;
  before1: Int32Array;
  before1Count: number;
  after1: Int32Array;
  after1Count: number;
  before2: number;
  after2: number;
  clauseWord: number;
  leadWord: number;
  lateWord: number;
  sentenceWord: number;
  roleBefore: Int32Array;
  roleBeforeNames: string[];
  roleInClause: Int32Array;
  roleInClauseNames: string[];
}

interface TableIds {
  vocab: Map<string, number>;
  words: Map<string, WordIds>;
  edgeBefore1: number;
  edgeAfter1: number;
  edgeBefore2: number;
  edgeAfter2: number;
  cpos: number[];
  clauseEnd: number;
  cap: number;
  money: number;
  punctuation: (sign: string) => number;
}

const tableIds = new WeakMap<BinaryTable, TableIds>();

function idsFor(table: BinaryTable): TableIds {
  let ids = tableIds.get(table);
  if (ids) return ids;
  const id = (name: string) => table.vocab.get(name) ?? -1;
  const signs = new Map<string, number>();
  ids = {
    vocab: table.vocab,
    words: new Map(),
    edgeBefore1: id(EDGE.before1[0]!),
    edgeAfter1: id(EDGE.after1[0]!),
    edgeBefore2: id(EDGE.before2),
    edgeAfter2: id(EDGE.after2),
    cpos: [0, 1, 2, 3, 4].map((n) => id(`cpos:${n}`)),
    clauseEnd: id('clause-end'),
    cap: id('cap'),
    money: id('money'),
    punctuation: (sign) => {
      let j = signs.get(sign);
      if (j === undefined) {
        j = id(`pb:${sign}`);
        if (signs.size < 1000) signs.set(sign, j);
      }
      return j;
    },
  };
  tableIds.set(table, ids);
  return ids;
}

function wordIdsOf(ids: TableIds, word: string): WordIds {
  let found = ids.words.get(word);
  if (found) return found;
  const forms = formsOf(word);
  const id = (name: string) => ids.vocab.get(name) ?? -1;
  const distinct = (names: string[]) => [...new Set(names)];
  const own = distinct(forms.own);
  const before1 = distinct(forms.before1);
  const after1 = distinct(forms.after1);
  const roleBeforeNames = distinct(forms.roleBefore);
  const roleInClauseNames = distinct(forms.roleInClause);
  found = {
    own: Int32Array.from(own, id),
    ownCount: own.length,
    before1: Int32Array.from(before1, id),
    before1Count: before1.length,
    after1: Int32Array.from(after1, id),
    after1Count: after1.length,
    before2: id(forms.before2),
    after2: id(forms.after2),
    clauseWord: id(forms.clauseWord),
    leadWord: id(forms.leadWord),
    lateWord: id(forms.lateWord),
    sentenceWord: id(forms.sentenceWord),
    roleBefore: Int32Array.from(roleBeforeNames, id),
    roleBeforeNames,
    roleInClause: Int32Array.from(roleInClauseNames, id),
    roleInClauseNames,
  };
  if (ids.words.size < FORMS_CACHE_MAX) ids.words.set(word, found);
  return found;
}

export interface Span {
  key: SectionKey;
  start: number;
  end: number;
  text: string;
}

/** Words that never start or end an item. */
const EDGE_STOPWORDS = new Set(
  'and or but so the a an to of for with in on at by that which who also y o pero que de del la el los las un una unos unas en con para por a al su sus se lo le les'.split(
    ' ',
  ),
);

/**
 * Runs of tokens whose probability for `key` reaches `threshold`, as spans of the original text:
 * a one-word gap inside a clause is bridged, a run never crosses a sentence, and function words are
 * trimmed from both ends. `cutAtCommas` makes one item per listed feature.
 */
export function decodeSpans(
  message: string,
  tokens: TaggedToken[],
  probs: number[],
  key: SectionKey,
  threshold: number,
  cutAtCommas: boolean,
): Span[] {
  const inside = probs.map((p) => p >= threshold);
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (
      !inside[i] &&
      inside[i - 1] &&
      inside[i + 1] &&
      tokens[i - 1]!.clause === tokens[i]!.clause &&
      tokens[i]!.clause === tokens[i + 1]!.clause &&
      probs[i]! >= threshold / 3
    )
      inside[i] = true;
  }
  const spans: Span[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!inside[i]) {
      i++;
      continue;
    }
    let j = i;
    while (
      j + 1 < tokens.length &&
      inside[j + 1] &&
      tokens[j + 1]!.sentence === tokens[i]!.sentence &&
      !(cutAtCommas && tokens[j + 1]!.clause !== tokens[j]!.clause)
    )
      j++;
    let a = i;
    let b = j;
    while (a <= b && EDGE_STOPWORDS.has(tokens[a]!.word)) a++;
    while (b >= a && EDGE_STOPWORDS.has(tokens[b]!.word)) b--;
    if (a <= b) spans.push(spanOf(message, key, tokens[a]!.start, tokens[b]!.end));
    i = j + 1;
  }
  return spans;
}

/** A span of the message, widened to the signs that belong to its numbers ("$40k", "50%"). */
export function spanOf(message: string, key: SectionKey, from: number, to: number): Span {
  let start = from;
  let end = to;
  while (start > 0 && /[$€£¥₹]/u.test(message[start - 1]!)) start--;
  while (end < message.length && /[%+]/.test(message[end]!)) end++;
  return { key, start, end, text: message.slice(start, end) };
}

/** Labels a visitor writes before a value ("Goal: …", "Presupuesto: …"), by section. */
const LABELS: [SectionKey, string][] = [
  ['goal', 'goal goals objective objectives aim purpose objetivo objetivos meta metas proposito'],
  [
    'constraints',
    'budget presupuesto deadline plazo plazos fecha timeline timeframe stack tech tecnologia constraints restricciones requirements requisitos duration duracion',
  ],
  ['audience', 'audience target publico publico_objetivo target_audience'],
  ['style', 'style estilo look design diseno'],
  ['features', 'features feature funcionalidades funciones caracteristicas'],
  ['industry', 'industry sector industria rubro'],
  ['service', 'service servicio'],
  ['context', 'context contexto background antecedentes situacion situacion_actual'],
];
const LABEL_OF = new Map<string, SectionKey>();
for (const [key, words] of LABELS) for (const label of words.split(' ')) LABEL_OF.set(label, key);

/** A labelled value: the label's section, the label's first token and the value's token range (empty when last < first). */
export interface Labelled {
  key: SectionKey;
  label: number;
  first: number;
  last: number;
}

/**
 * The values the visitor labelled: a clause that opens with a known label of one or two words and
 * a colon ("Goal: cut processing time", "Presupuesto: bajo"); the value runs to the end of its
 * sentence or to the next label.
 */
export function labelledValues(message: string, tokens: TaggedToken[]): Labelled[] {
  const out: Labelled[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i > 0 && tokens[i]!.clause === tokens[i - 1]!.clause) continue;
    for (const n of [2, 1]) {
      const words = tokens.slice(i, i + n);
      if (words.length < n || words.some((t, j) => j > 0 && t.before !== '')) continue;
      const key = LABEL_OF.get(words.map((t) => t.word).join('_'));
      if (!key || !/^\s*:/.test(message.slice(words[n - 1]!.end))) continue;
      // The value: the words after the colon, to the end of the sentence or the next ";" (none: "style: -").
      let last = i + n - 1;
      while (
        last + 1 < tokens.length &&
        tokens[last + 1]!.sentence === tokens[i]!.sentence &&
        !(last + 1 > i + n && tokens[last + 1]!.before.includes(';'))
      )
        last++;
      out.push({ key, label: i, first: i + n, last });
      break;
    }
  }
  return out;
}

/** A Spanish infinitive, with or without a clitic ("contar", "recuperarlo", "mantenerla"). */
const INFINITIVE = /^[a-z]{2,}(?:ar|er|ir)(?:lo|la|los|las|le|les|me|te|se|nos)?$/;
/** Words that make "to" a preposition rather than a verb's marker ("move to the cloud", "to us"). */
const NOT_AFTER_TO = new Set(
  'the a an our my your their his her its this that these those it them us me you him one two three more most all every each other another some any'.split(
    ' ',
  ),
);
/** The verbs of wanting before "que" ("necesitamos que la infraestructura aguante"). */
const WANT =
  /^(?:want|wants|wanted|need|needs|would|like|hope|hoping|aim|aiming|plan|planning|quer\w*|quier\w*|necesit\w*|busc\w*|gustaria|esperamos|buscamos)$/;
/**
 * Verbs of the work itself ("we want to build a website", "para migrar el servidor"): what follows is
 * the service asked for, not its purpose.
 */
const WORK_VERB =
  /^(?:build|rebuild|create|make|develop|redo|redesign|migrate|move|add|hire|join|fix|set|update|maintain|integrate|connect|upgrade|launch|work|construir|crear|hacer|rehacer|desarrollar|migrar\w*|mover|pasar|agregar|sumar|contratar|arreglar|integrar\w*|conectar|actualizar|armar|montar|lanzar|mantener|ampliar|trabajar|sea|sean|se)$/;
/** Nouns that say what a goal is ("the goal is to…", "el objetivo es…"). */
const GOAL_NOUN = /^(?:goal|aim|objective|purpose|idea|point|objetivo|meta|proposito|idea|fin)$/;

/**
 * Purpose clauses, the phrases a visitor gives as the reason for the work: "an app for teenagers to
 * swap textbooks", "so (that) we get more bookings", "in order to", "the goal is to…", "una web para
 * contar nuestros proyectos", "para que aguante", "necesitamos que la infraestructura aguante",
 * "que nos ayude a definir el modelo", a clause opening with "que" ("…, que transmita confianza").
 * Each is the token range from the word after its marker to the end of its clause.
 */
export function purposeClauses(message: string, tokens: TaggedToken[]): [number, number][] {
  const out: [number, number][] = [];
  const clauseEnd = (i: number) => {
    let j = i;
    while (j + 1 < tokens.length && tokens[j + 1]!.clause === tokens[i]!.clause) j++;
    return j;
  };
  const push = (first: number) => {
    if (first >= tokens.length || WORK_VERB.test(tokens[first]!.word)) return;
    const last = clauseEnd(first);
    if (out.length > 0 && out[out.length - 1]![1] >= first) return;
    out.push([first, last]);
  };
  for (let i = 0; i < tokens.length - 1; i++) {
    const word = tokens[i]!.word;
    const next = tokens[i + 1]!;
    if (next.clause !== tokens[i]!.clause) continue;
    const previous = i > 0 && tokens[i - 1]!.clause === tokens[i]!.clause ? tokens[i - 1]!.word : '';
    const clauseOpens = i === 0 || tokens[i - 1]!.clause !== tokens[i]!.clause;
    if (word === 'to') {
      // "to" + a verb: not a preposition before a determiner, a pronoun, a number or a name.
      const capital = /^\p{Lu}/u.test(message.slice(next.start, next.start + 1));
      if (NOT_AFTER_TO.has(next.word) || /\d/.test(next.word) || capital) continue;
      push(i + 1);
    } else if (
      word === 'so' &&
      (next.word === 'that' || /^(?:we|i|our|my|they|people|customers|clients|it)$/.test(next.word))
    ) {
      push(next.word === 'that' ? i + 2 : i + 1);
    } else if (word === 'para' && next.word === 'que') {
      push(i + 2);
    } else if (word === 'para' && INFINITIVE.test(next.word)) {
      push(i + 1);
    } else if (word === 'a' && /^ayud/.test(previous) && INFINITIVE.test(next.word)) {
      push(i + 1);
    } else if (
      word === 'que' &&
      (clauseOpens || previous === 'y' || WANT.test(previous)) &&
      // "¿Qué tecnología usar?" asks; it states no purpose.
      !/é/i.test(message.slice(tokens[i]!.start, tokens[i]!.end))
    ) {
      push(i + 1);
    } else if (GOAL_NOUN.test(word) && /^(?:is|es|seria|sería)$/.test(next.word)) {
      const after = tokens[i + 2];
      push(after && (after.word === 'to' || after.word === 'que') ? i + 3 : i + 2);
    }
  }
  return out;
}

/**
 * Where a gold phrase lies in the message, as a token range: its folded words found in order
 * (exactly, else the window sharing most of its words). Null when fewer than 60 % of them are found.
 */
export function locatePhrase(tokens: TaggedToken[], phrase: string): [number, number] | null {
  const words = fold(phrase).match(WORD) ?? [];
  if (words.length === 0) return null;
  for (let i = 0; i + words.length <= tokens.length; i++) {
    let ok = true;
    for (let j = 0; j < words.length && ok; j++) ok = tokens[i + j]!.word === words[j];
    if (ok) return [i, i + words.length - 1];
  }
  let best: [number, number] | null = null;
  let bestScore = 0;
  const wanted = new Set(words);
  for (let i = 0; i < tokens.length; i++) {
    if (!wanted.has(tokens[i]!.word)) continue;
    for (let j = i; j < Math.min(tokens.length, i + words.length + 3); j++) {
      if (!wanted.has(tokens[j]!.word)) continue;
      const found = new Set(tokens.slice(i, j + 1).map((t) => t.word));
      let hits = 0;
      for (const w of wanted) if (found.has(w)) hits++;
      const score = hits / wanted.size - (j - i + 1 - hits) * 0.05;
      if (score > bestScore) {
        bestScore = score;
        best = [i, j];
      }
    }
  }
  return bestScore >= 0.6 ? best : null;
}
