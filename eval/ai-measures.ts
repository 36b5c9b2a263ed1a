import type { RecommendResponse, RefineResponse } from '../src/features/ai/postprocess.ts';
import {
  contentWords,
  isSingleVerb,
  isTraceable,
  mentionsMoney,
  mentionsTime,
} from '../src/integrations/llm/offline/phrases.ts';
import { PATHS, SECTION_KEYS } from '../src/integrations/llm/offline/vocabulary.ts';
import type { RecommendCase, RefineCase } from './sets.ts';

/**
 * The measures of issue 24 for one set, from the answers given to its items (by the engine, a model,
 * or models trained on the other folds). Pure: the callers decide where the answers come from.
 */
export interface RecommendOutcome {
  item: RecommendCase;
  answer: RecommendResponse;
}

export interface RefineOutcome {
  item: RefineCase;
  answer: RefineResponse;
  /** recommend-plan's answer to the same message: its missingInformation is checked against the gold sections. */
  recommend: RecommendResponse;
}

const FIELD_KEYS = ['initialChoice', 'service', 'industry', 'audience', 'style'] as const;
const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const frac = (n: number, d: number) => `${pct(n, d)} (${n}/${d})`;

/** What a missingInformation item or a suggestion asks for. */
const DIMENSIONS: [string, RegExp][] = [
  ['goal', /\b(?:goal|objective|purpose|(?<!publico )objetivo|proposito|meta)/],
  ['audience', /\b(?:audience|publico|who will use|quien lo usara|target users|usuarios objetivo)/],
  ['features', /\b(?:features?|functionalit\w*|funcionalidad\w*|funciones|caracteristicas)\b/],
  ['timeline', /\b(?:timeline|deadline|launch date|timeframe|plazos?|fecha)/],
  ['budget', /\b(?:budget|presupuesto)/],
  ['industry', /\b(?:industry|sector|industria|rubro)/],
  ['style', /\b(?:style|estilo|look and feel)/],
];

function dimensionsAsked(items: string[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) {
    const folded = item.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
    for (const [dimension, re] of DIMENSIONS) if (re.test(folded)) out.add(dimension);
  }
  return out;
}

/** The dimensions the gold sections show the visitor gave. */
function dimensionsSaid(sections: Record<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const key of ['goal', 'audience', 'features', 'industry', 'style'])
    if (sections[key]?.length) out.add(key);
  for (const phrase of sections.constraints ?? []) {
    if (mentionsTime(phrase)) out.add('timeline');
    if (mentionsMoney(phrase)) out.add('budget');
  }
  return out;
}

function overlapF1(gold: string[], answered: string[]): number {
  const g = new Set(gold.flatMap(contentWords));
  const a = new Set(answered.flatMap(contentWords));
  if (g.size === 0 && a.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (g.has(w)) shared++;
  return (2 * shared) / (g.size + a.size);
}

export function reportRecommend(outcomes: RecommendOutcome[], verbose: boolean): string[] {
  const lines: string[] = [];
  if (outcomes.length === 0) return lines;
  let acceptable = 0;
  let exact = 0;
  const confusion = new Map<string, Map<string, number>>();
  let untraceableAnswers = 0;
  let untraceableSignals = 0;
  let verbNeeds = 0;
  let withFields = 0;
  let askedGivenFields = 0;
  const byTag = new Map<string, [number, number]>();
  const examples: string[] = [];
  for (const { item, answer } of outcomes) {
    const got = answer.recommendedPath;
    const ok = item.acceptable.includes(got);
    if (ok) acceptable++;
    if (got === item.path) exact++;
    const row = confusion.get(item.path) ?? new Map<string, number>();
    row.set(got, (row.get(got) ?? 0) + 1);
    confusion.set(item.path, row);
    for (const tag of [item.locale, ...item.tags]) {
      const [h, n] = byTag.get(tag) ?? [0, 0];
      byTag.set(tag, [h + (ok ? 1 : 0), n + 1]);
    }
    const bad = answer.rationale.signals.filter((s) => !isTraceable(s, item.message));
    if (bad.length) {
      untraceableAnswers++;
      untraceableSignals += bad.length;
      if (verbose) examples.push(`  untraceable ${item.id}: ${bad.join(' | ')}`);
    }
    if (item.fields) {
      withFields++;
      const given = ['goal', 'industry', 'audience', 'features'].filter((k) => {
        const v = item.fields?.[k];
        return Array.isArray(v) ? v.length > 0 : Boolean(v);
      });
      const askedGiven = [...dimensionsAsked(answer.missingInformation)].filter((d) => given.includes(d));
      if (askedGiven.length) {
        askedGivenFields++;
        if (verbose) examples.push(`  asks for a wizard answer ${item.id}: ${askedGiven.join(', ')}`);
      }
    }
    const verbs = answer.detectedNeeds.filter(isSingleVerb);
    verbNeeds += verbs.length;
    if (verbose && verbs.length) examples.push(`  verb need ${item.id}: ${verbs.join(', ')}`);
    if (verbose && !ok)
      examples.push(`  path ${item.id}: expected ${item.acceptable.join('/')}, got ${got} — ${item.message}`);
  }
  const count = (gold: string | null, got: string | null) => {
    let n = 0;
    for (const [g, row] of confusion)
      for (const [a, k] of row) if ((!gold || g === gold) && (!got || a === got)) n += k;
    return n;
  };
  const n = outcomes.length;
  lines.push(`  recommend-plan (${n} messages)`);
  lines.push(`    path in the acceptable set   ${frac(acceptable, n)}   target ≥ 90%`);
  lines.push(`    path exact                   ${frac(exact, n)}`);
  lines.push(
    `    Launch recall                ${frac(count('Launch', 'Launch'), count('Launch', null))}   target ≥ 80%`,
  );
  lines.push(
    `    Build precision              ${frac(count('Build', 'Build'), count(null, 'Build'))}   target ≥ 85%`,
  );
  lines.push(
    `    per path (P / R)             ${PATHS.map(
      (p) => `${p} ${pct(count(p, p), count(null, p))} / ${pct(count(p, p), count(p, null))}`,
    ).join(', ')}`,
  );
  lines.push(`    confusion (row: label, column: answer; ${PATHS.map((p) => p.slice(0, 6)).join(' ')})`);
  for (const gold of PATHS) {
    if (count(gold, null) === 0) continue;
    lines.push(`      ${gold.padEnd(17)} ${PATHS.map((p) => String(count(gold, p)).padStart(6)).join(' ')}`);
  }
  lines.push(
    `    signals not traceable        ${untraceableAnswers} answers (${untraceableSignals} signals)   target 0`,
  );
  lines.push(`    detectedNeeds single verbs   ${verbNeeds}`);
  if (withFields > 0) {
    lines.push(
      `    missingInformation asking for a wizard answer  ${askedGivenFields} of ${withFields} items with fields   target 0`,
    );
  }
  if (verbose) {
    lines.push(
      `    by tag                       ${[...byTag]
        .filter(([, [, k]]) => k >= 3)
        .map(([tag, [h, k]]) => `${tag} ${h}/${k}`)
        .join(', ')}`,
    );
    lines.push(...examples);
  }
  return lines;
}

export function reportRefine(outcomes: RefineOutcome[], verbose: boolean): string[] {
  const lines: string[] = [];
  if (outcomes.length === 0) return lines;
  const n = outcomes.length;
  let hits = 0;
  let allFive = 0;
  const perField = Object.fromEntries(FIELD_KEYS.map((k) => [k, { ok: 0, nullRight: 0, missed: 0 }]));
  const examples: string[] = [];
  for (const { item, answer } of outcomes) {
    let all = true;
    for (const key of FIELD_KEYS) {
      const expected = item.fields[key] ?? null;
      const got = answer.fields[key];
      const stats = perField[key]!;
      if (got === expected) {
        hits++;
        stats.ok++;
        continue;
      }
      all = false;
      if (expected === null) stats.nullRight++;
      else if (got === null) stats.missed++;
      if (verbose)
        examples.push(`  field ${item.id}.${key}: expected ${expected}, got ${got} — ${item.message}`);
    }
    if (all) allFive++;
  }
  lines.push(`  refine (${n} descriptions)`);
  lines.push(`    exact field accuracy         ${frac(hits, n * FIELD_KEYS.length)}   target ≥ 88%`);
  lines.push(`    all five fields right        ${frac(allFive, n)}`);
  for (const key of FIELD_KEYS) {
    const s = perField[key]!;
    const note =
      key === 'audience'
        ? `values invented where null was right: ${s.nullRight}`
        : `values where null was right: ${s.nullRight}`;
    const target = key === 'initialChoice' || key === 'audience' ? '   target ≥ 85%' : '';
    lines.push(
      `    ${key.padEnd(28)} ${frac(s.ok, n)}; ${note}; null where a value was right: ${s.missed}${target}`,
    );
  }

  const withSections = outcomes.filter((o) => o.item.sections);
  if (withSections.length > 0) {
    const m = withSections.length;
    lines.push(`    sections (${m} descriptions with gold sections; presence of each key)`);
    const targets: Record<string, string> = {
      goal: 'recall ≥ 75%',
      features: 'recall ≥ 75%',
      context: 'recall ≥ 75%',
      constraints: 'precision ≥ 75%',
    };
    for (const key of SECTION_KEYS) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      let f1 = 0;
      let goldCount = 0;
      for (const { item, answer } of withSections) {
        const gold = item.sections?.[key] ?? [];
        const got = answer.sections.find((s) => s.key === key)?.items ?? [];
        if (gold.length && got.length) tp++;
        else if (got.length) {
          fp++;
          if (verbose) examples.push(`  section ${item.id}.${key}: not in gold, answered ${got.join(' | ')}`);
        } else if (gold.length) {
          fn++;
          if (verbose) examples.push(`  section ${item.id}.${key}: missed ${gold.join(' | ')}`);
        }
        if (gold.length) {
          goldCount++;
          f1 += overlapF1(gold, got);
        }
      }
      lines.push(
        `      ${key.padEnd(12)} precision ${frac(tp, tp + fp).padEnd(16)} recall ${frac(tp, tp + fn).padEnd(16)} phrase overlap (word F1) ${pct(f1, goldCount)}${targets[key] ? `   target ${targets[key]}` : ''}`,
      );
    }
    let askedSaid = 0;
    let suggestedSaid = 0;
    for (const { item, answer, recommend } of withSections) {
      const said = dimensionsSaid(item.sections ?? {});
      const asked = [...dimensionsAsked(recommend.missingInformation)].filter((d) => said.has(d));
      const suggested = [...dimensionsAsked(answer.suggestions)].filter((d) => said.has(d));
      if (asked.length) askedSaid++;
      if (suggested.length) suggestedSaid++;
      if (verbose && asked.length)
        examples.push(`  missing ${item.id}: asks for ${asked.join(', ')}, which was said`);
    }
    lines.push(`    missingInformation asking for what was said  ${askedSaid} of ${m} messages   target 0`);
    lines.push(`    refine suggestions asking for what was said  ${suggestedSaid} of ${m} messages`);
  }
  if (verbose) lines.push(...examples);
  return lines;
}
