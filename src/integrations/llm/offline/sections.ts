import type { EngineModel, Reading } from './model.ts';
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
