import type { EngineModel, Reading } from './model.ts';
import { rolesOf, type SectionRole } from './section-cues.ts';
import {
  decodeSpans,
  labelledValues,
  purposeClauses,
  type Span,
  spanOf,
  tokenProbabilities,
} from './tagger.ts';
import { isPlaceholder } from './text.ts';
import { SECTION_KEYS, type SectionKey } from './vocabulary.ts';

/**
 * Refine's sections read from a message: the tagger's probability for every word and section
 * (tagger.ts, the model's section table), decoded into phrases of the visitor's text, and the values
 * the visitor labelled taken as they stand.
 */
/** Sections whose items are one phrase per listed thing (a comma ends an item). */
const LISTED: ReadonlySet<SectionKey> = new Set(['features', 'service', 'audience', 'industry', 'style']);

export interface SectionPrediction {
  /** The phrases of each section, in message order. */
  spans: Record<SectionKey, Span[]>;
  /** The highest probability any word of the message has for each section. */
  strongest: Record<SectionKey, number>;
}

export function predictSections(model: EngineModel, reading: Reading): SectionPrediction {
  const table = model.sections;
  const width = table.keys.length;
  const all = tokenProbabilities(table, reading.message, reading.tokens);
  const spans = {} as Record<SectionKey, Span[]>;
  const strongest = {} as Record<SectionKey, number>;
  const probs: number[] = new Array(reading.tokens.length);
  for (const key of SECTION_KEYS) {
    const k = table.keys.indexOf(key);
    let most = 0;
    for (let i = 0; i < probs.length; i++) {
      probs[i] = all[i * width + k]!;
      if (probs[i]! > most) most = probs[i]!;
    }
    strongest[key] = most;
    spans[key] = decodeSpans(
      reading.message,
      reading.tokens,
      probs,
      key,
      model.decisions.sectionThreshold[key],
      LISTED.has(key),
    );
  }
  spans.constraints = spans.constraints.filter((span) => isLimit(reading, span));
  applyLabels(reading, spans);
  if (spans.goal.length === 0) spans.goal = purposeSpans(reading, spans);
  return { spans, strongest };
}

/** Words of a value that need their label to mean something ("Budget: low"); a goal names itself. */
const SHORT_VALUE_WORDS = 2;

/**
 * A value the visitor labelled ("Goal: cut processing time by 50%") is that section's item, whatever
 * the tagger read in it; a placeholder value ("Goal: N/A") is no item of any section.
 */
function applyLabels(reading: Reading, spans: Record<SectionKey, Span[]>) {
  const { message, tokens } = reading;
  for (const labelled of labelledValues(message, tokens)) {
    const from = tokens[labelled.label]!.start;
    const to = tokens[labelled.last]!.end;
    for (const key of SECTION_KEYS) spans[key] = spans[key].filter((s) => s.end <= from || s.start >= to);
    if (labelled.last < labelled.first) continue;
    const valueStart = tokens[labelled.first]!.start;
    let end = to;
    while (end < message.length && /[%+]/.test(message[end]!)) end++;
    const value = message.slice(valueStart, end);
    if (isPlaceholder(value)) continue;
    const short = labelled.key !== 'goal' && labelled.last - labelled.first + 1 <= SHORT_VALUE_WORDS;
    const start = short ? from : valueStart;
    spans[labelled.key].push({ key: labelled.key, start, end, text: message.slice(start, end) });
    spans[labelled.key].sort((a, b) => a.start - b.start);
  }
}

/** Words that never end a goal taken from a purpose clause. */
const TRAILING = /^(?:and|or|but|with|for|to|of|y|o|con|para|de|del|en|el|la|los|las|un|una|que|the|a|an)$/;

/**
 * When the tagger reads no goal, the purpose clauses the visitor wrote are the goal ("an app to swap
 * textbooks", "una web para recibir donaciones", "so that we get more bookings"): the tagger learns
 * goals from words, and a purpose worded in words no training message used would otherwise be lost.
 * A clause naming the work itself ("want to build a site"), the look or a limit is left out.
 */
function purposeSpans(reading: Reading, spans: Record<SectionKey, Span[]>): Span[] {
  const { message, tokens } = reading;
  const taken = [...spans.style, ...spans.constraints];
  const out: Span[] = [];
  for (const [first, end] of purposeClauses(message, tokens)) {
    let last = end;
    while (last > first && TRAILING.test(tokens[last]!.word)) last--;
    const from = tokens[first]!.start;
    const to = tokens[last]!.end;
    // A clause that is the look or a limit ("que sea minimalista", "so it is live by June") is not a goal.
    if (taken.some((s) => s.start < to && s.end > from)) continue;
    if (isPlaceholder(message.slice(from, to))) continue;
    out.push(spanOf(message, 'goal', tokens[first]!.start, tokens[last]!.end));
  }
  return out;
}

/** Roles whose words state a limit by themselves: money, a date or duration, a technology, a team, a must. */
const LIMIT_ROLES: ReadonlySet<SectionRole> = new Set([
  'money',
  'time',
  'duration',
  'technology',
  'team',
  'requirement',
]);
/** Time words that place or measure something but state no limit on their own ("before", "weeks"). */
const RELATIONAL =
  /^(?:before|antes|after|despues|next|proxim[oa]s?|now|ahora|when|cuando|until|hasta|by|soon|day|days|week|weeks|month|months|year|years|dia|dias|semana|semanas|mes|meses|ano|anos)$/;
/** Units of time that measure a limit when a quantity comes before them ("un par de semanas", "next month"). */
const UNIT = /^(?:day|days|week|weeks|month|months|year|years|dia|dias|semana|semanas|mes|meses|ano|anos)$/;
const QUANTITY =
  /^(?:\d.*|a|an|one|two|three|four|five|six|few|couple|half|next|this|un|una|uno|dos|tres|cuatro|cinco|seis|par|unos|unas|medio|proximo|proxima|proximos|este|esta)$/;
/** What "before" or "antes de" leads to when it orders the work, not a date ("before we decide", "antes de gastar"). */
const PRECONDITION =
  /^(?:decid\w*|deciding|spend\w*|gast\w*|build\w*|constru\w*|invest\w*|invert\w*|commit\w*|anything|nada|choos\w*|eleg\w*)$/;
const FILLER = /^(?:we|i|de|que|nosotros|the|la|el)$/;

/**
 * Whether a phrase the tagger read as a constraint states a limit (JUDGEMENT.md: budget, deadline,
 * required technology, team size, duration). A time word alone places something without limiting
 * it: "before" in "before we decide whether to rebuild" or "antes de gastar" orders the work,
 * "antes" in "fotos de antes y después" is no time at all, "meses" in "todos los meses" is a
 * recurrence, "weeks" in "skip weeks" is a feature, "24h before appointments" is a reminder's
 * timing, "4 years old" is history and "when an order comes in" is a trigger. Such a phrase is no
 * constraint; a phrase with a number, an amount, a month, a named technology, a team or a must is,
 * and so is "before" or "antes de" an event ("antes de la próxima jornada", "before the Sept intake").
 */
function isLimit(reading: Reading, span: Span): boolean {
  const { message, tokens } = reading;
  const first = tokens.findIndex((t) => t.start >= span.start);
  if (first < 0) return true;
  let last = first;
  while (last + 1 < tokens.length && tokens[last + 1]!.end <= span.end) last++;
  const words = tokens.slice(first, last + 1).map((t) => t.word);
  const previous = first > 0 ? tokens[first - 1]! : undefined;
  const following = last + 1 < tokens.length ? tokens[last + 1]!.word : '';
  if (/^(?:old|ago)$/.test(following) || previous?.word === 'hace') return false;
  if (/^(?:before|antes)$/.test(words[0]!)) {
    if (
      previous &&
      previous.clause === tokens[first]!.clause &&
      QUANTITY.test(previous.word) &&
      /\d/.test(previous.word)
    )
      return false;
    const next = words.slice(1).find((w) => !FILLER.test(w));
    // "before the regulator's visit", "antes de la próxima jornada": an event to be ready for.
    if (next) return !PRECONDITION.test(next);
  }
  const value = (i: number): boolean => {
    const token = tokens[i]!;
    if (/\d/.test(token.word)) return true;
    if (UNIT.test(token.word)) {
      const before = i > 0 ? tokens[i - 1]!.word : '';
      // "un par de semanas", "a couple of weeks"
      const twoBefore = /^(?:de|of)$/.test(before) && i > 1 ? tokens[i - 2]!.word : '';
      return QUANTITY.test(before) || /^(?:par|couple|few)$/.test(twoBefore);
    }
    if (RELATIONAL.test(token.word)) return false;
    if (rolesOf(token.word).some((role) => LIMIT_ROLES.has(role))) return true;
    // A name written with a capital inside a sentence: a technology or a product ("EHR", "Flutter").
    return i > 0 && tokens[i - 1]!.sentence === token.sentence && /\p{Lu}/u.test(message[token.start]!);
  };
  const indices = words.map((_, k) => first + k);
  if (/^(?:when|cuando)$/.test(words[0]!))
    return indices.some(
      (i) =>
        /\d/.test(tokens[i]!.word) ||
        (!RELATIONAL.test(tokens[i]!.word) && rolesOf(tokens[i]!.word).includes('time')),
    );
  return indices.some(value);
}
