import {
  ADVICE_CUES,
  AUDIENCE_CUES,
  CONSTRAINT_CUES,
  CONTEXT_CUES,
  CUSTOM_CUES,
  type Cue,
  FEATURE_CUES,
  GOAL_CUES,
  INDUSTRY_CUES,
  INQUIRY_CUES,
  LATER_CUES,
  PRIORITY_CUES,
  possibleCues,
  SERVICE_CUES,
  STYLE_CUES,
  UNCERTAINTY_CUES,
} from './lexicon.ts';
import { type Fragment, fold, fragments, negatedAt } from './text.ts';
import {
  AUDIENCES,
  type Audience,
  INDUSTRIES,
  type Industry,
  PATH_OF_SERVICE,
  type PlanPath,
  PRIMARY_CHOICE,
  type RefineFields,
  SERVICES,
  type SectionKey,
  type Service,
  STYLES,
  type Style,
} from './vocabulary.ts';
import { type Target, type WordHit, wordHits } from './words.ts';

export interface Hit {
  start: number;
  end: number;
  /** The visitor's own words that matched. */
  text: string;
  weight: number;
  /** The cue's own weight, before clause and position factors. */
  base: number;
  fragment: number;
}

export interface Analysis {
  message: string;
  /** `fold(message)`, computed once. */
  folded: string;
  fragments: Fragment[];
  path: PlanPath;
  /** Score of every path, for alternatives. */
  pathScores: Record<PlanPath, number>;
  service: Service | null;
  serviceScore: number;
  fields: RefineFields;
  /** Hits per refine section, in message order. */
  sections: Record<SectionKey, Hit[]>;
  /** Hits that decided the path (service, custom, advice, uncertainty cues). */
  evidence: Hit[];
  uncertain: boolean;
  /** Cue score of every value of each field (what the lexicons read, before any threshold). */
  scores: {
    service: Record<Service, number>;
    industry: Record<Industry, number>;
    audience: Record<Audience, number>;
    style: Record<Style, number>;
    custom: number;
    advice: number;
    uncertainty: number;
  };
}

const SERVICE_THRESHOLD = 1.5;
const EXISTING = /\b(?:our|my|the|la|el|nuestr[oa]s?|mi|mis|tu|su)\s+(?:\w+\s+)?$/;
const CREATE_CUES =
  /\b(?:new|nuev[oa]s?|build|create|crear|hacer|haga|make|montar|redesign|revamp|rebuild|relaunch|refresh|renovar|redisen\w*|desarrollar|develop|launch|lanzar|sacar)\b/;
const CUSTOM_THRESHOLD = 2.5;
const HELP_SERVICES = [
  'development-support',
  'infrastructure-scale',
  'seo-services',
  'maintenance-plans',
] as const;
/** A visitor who says they want something ("I need…", "quiero…") gets their weak lean taken. */
const WANT =
  /\b(?:need|needs|want|wants|would like|d like|d love|would love|looking for|after|necesit\w*|quier\w*|queremos|busc\w*|ocup\w*|nos gustaria|me gustaria|hace falta)\b/;
const WEAK_THRESHOLD = 0.9;
const WORD = /[a-z0-9]+/g;
/** Scale of word-level evidence against phrase cues. */
const WORD_WEIGHT = 1;

/** Reads a visitor's message the way the offline engine needs it: one deterministic pass. */
export function analyze(message: string, confirmed: { service?: Service } = {}): Analysis {
  const folded = fold(message);
  const parts = fragments(message);
  const fragmentWeight = weights(folded, parts);
  const words = new Map<Target, WordHit[]>();
  for (const hit of wordHits(folded)) {
    const list = words.get(hit.target);
    if (list) list.push(hit);
    else words.set(hit.target, [hit]);
  }
  // The first 1–3 letters of every word: a cue none of whose alternatives starts that way is skipped.
  const wordStarts = new Set<string>();
  WORD.lastIndex = 0;
  for (let match = WORD.exec(folded); match !== null; match = WORD.exec(folded)) {
    const word = match[0];
    wordStarts.add(word.slice(0, 1)).add(word.slice(0, 2)).add(word.slice(0, 3));
  }
  const active = possibleCues(wordStarts);
  const scan = (cues: Cue[], target: Target | null, negatable = false) =>
    collect(
      message,
      folded,
      parts,
      fragmentWeight,
      cues,
      active,
      target ? words.get(target) : undefined,
      negatable,
    );

  const serviceHits = new Map<Service, Hit[]>(SERVICES.map((s) => [s, scan(SERVICE_CUES[s], s)]));
  // "our site is slow" talks about an existing site: unless the visitor asks for a new one, such a
  // mention is context for another service, not a request to build. The same holds for any mention
  // of the product when the message is about something failing or needing care.
  const creating = CREATE_CUES.test(folded) || words.has('create');
  if (!creating) {
    const helpScore = Math.max(...HELP_SERVICES.map((key) => total(serviceHits.get(key)!)));
    for (const key of ['build-website', 'build-application'] as const) {
      for (const hit of serviceHits.get(key)!) {
        if (
          helpScore >= SERVICE_THRESHOLD ||
          EXISTING.test(folded.slice(Math.max(0, hit.start - 24), hit.start))
        )
          hit.weight *= 0.4;
      }
    }
  }
  const customHits = scan(CUSTOM_CUES, 'custom');
  const adviceHits = scan(ADVICE_CUES, 'advice');
  const uncertaintyHits = scan(UNCERTAINTY_CUES, 'uncertain');
  const customScore = total(customHits);
  const adviceScore = total(adviceHits);
  // A short question about what the agency offers is an inquiry: nothing to build from yet.
  const inquiry = total(scan(INQUIRY_CUES, null)) >= 2 && message.split(/\s+/).length <= 12;
  const uncertain = total(uncertaintyHits) >= 2 || inquiry;

  let service = confirmed.service ?? best(SERVICES, (s) => serviceHits.get(s)!, SERVICE_THRESHOLD);
  // Weak evidence and a stated want: take the lean rather than the cautious default.
  if (
    service === null &&
    !uncertain &&
    adviceScore < 2 &&
    customScore < CUSTOM_THRESHOLD - 0.5 &&
    WANT.test(folded)
  )
    service = best(SERVICES, (s) => serviceHits.get(s)!, WEAK_THRESHOLD);
  const serviceScore = service ? total(serviceHits.get(service)!) : 0;
  const advisory = service === 'technical-advisory' || service === 'strategic-consultation';

  let path: PlanPath;
  if (uncertain && !confirmed.service) {
    path = 'Technical Review';
    if (!advisory) service = null;
  } else if (service === null) {
    // Nothing else asked for: an AI or integration mention alone is enough for Custom.
    path = customScore >= CUSTOM_THRESHOLD - 0.5 ? 'Custom' : 'Technical Review';
  } else if (
    !advisory &&
    customScore >= CUSTOM_THRESHOLD &&
    (service.startsWith('build-') || customScore > serviceScore)
  ) {
    path = 'Custom';
    if (service !== 'build-application' && service !== 'build-website') service = null;
  } else {
    path = PATH_OF_SERVICE[service];
    // An integration asked for together with a new site or app: Custom, for that site or app.
    if (service === 'workflow-automation' && creating) {
      const build = best(
        ['build-website', 'build-application'] as const,
        (s) => serviceHits.get(s)!,
        SERVICE_THRESHOLD,
      );
      if (build) service = build;
    }
  }

  const pathScores: Record<PlanPath, number> = {
    Build: 0,
    Launch: 0,
    Scale: 0,
    Custom: customScore,
    'Technical Review': adviceScore,
  };
  for (const s of SERVICES) pathScores[PATH_OF_SERVICE[s]] += total(serviceHits.get(s)!);

  const industryHits = new Map(INDUSTRIES.map((i) => [i, scan(INDUSTRY_CUES[i], `industry:${i}`)]));
  const audienceHits = new Map(AUDIENCES.map((a) => [a, scan(AUDIENCE_CUES[a], `audience:${a}`)]));
  const styleHits = new Map(STYLES.map((s) => [s, scan(STYLE_CUES[s], `style:${s}`, true)]));
  const industry = best(INDUSTRIES, (i) => industryHits.get(i)!, 1.5, ['technology']);
  const audience = best(AUDIENCES, (a) => audienceHits.get(a)!, 2);
  const style = best(STYLES, (s) => styleHits.get(s)!, 2);
  const initialChoice = service ? PRIMARY_CHOICE[service] : adviceScore >= 2 ? 'advice' : null;

  const sections: Record<SectionKey, Hit[]> = {
    service: service ? serviceHits.get(service)! : path === 'Custom' ? customHits : [],
    goal: scan(GOAL_CUES, null),
    industry: industry ? industryHits.get(industry)! : [],
    features: scan(FEATURE_CUES, null),
    audience: audience ? audienceHits.get(audience)! : [],
    style: style ? styleHits.get(style)! : [],
    constraints: scan(CONSTRAINT_CUES, null),
    context: scan(CONTEXT_CUES, null),
  };
  const evidence = [
    ...(service ? serviceHits.get(service)! : []),
    ...(path === 'Custom' ? customHits : []),
    ...(path === 'Technical Review' ? [...uncertaintyHits, ...adviceHits] : []),
  ].sort((a, b) => a.start - b.start);

  const totals = <T extends string>(map: Map<T, Hit[]>) => {
    const out = {} as Record<T, number>;
    map.forEach((hits, key) => {
      out[key] = total(hits);
    });
    return out;
  };
  return {
    message,
    folded,
    fragments: parts,
    path,
    pathScores,
    service,
    serviceScore,
    fields: { initialChoice, service, industry, audience, style },
    sections,
    evidence,
    uncertain,
    scores: {
      service: totals(serviceHits),
      industry: totals(industryHits),
      audience: totals(audienceHits),
      style: totals(styleHits),
      custom: customScore,
      advice: adviceScore,
      uncertainty: total(uncertaintyHits),
    },
  };
}

/**
 * Weight of each fragment: a clause the visitor marks as secondary ("later maybe a portal", or one
 * that follows "and then") counts half; one marked as the priority counts more.
 */
function weights(folded: string, parts: Fragment[]): number[] {
  return parts.map((part, i) => {
    const text = folded.slice(part.start, part.end);
    const between = i > 0 ? folded.slice(parts[i - 1]!.end, part.start) : '';
    if (PRIORITY_CUES.test(text)) return 1.3;
    if (/\b(?:then|luego)\b/.test(between)) return 0.5;
    return 1;
  });
}

function collect(
  message: string,
  folded: string,
  parts: Fragment[],
  fragmentWeight: number[],
  cues: Cue[],
  active: Set<Cue>,
  words: WordHit[] | undefined,
  negatable: boolean,
): Hit[] {
  const hits: Hit[] = [];
  // Plain loops, not find/findIndex/matchAll: this runs for every cue of every message.
  const add = (start: number, end: number, w: number) => {
    if (negatable && negatedAt(folded, start)) return;
    for (let h = 0; h < hits.length; h++) {
      const overlap = hits[h]!;
      if (start < overlap.end && end > overlap.start) {
        // One phrase counts once, at its strongest reading.
        if (w > overlap.base) {
          overlap.weight *= w / overlap.base;
          overlap.base = w;
        }
        return;
      }
    }
    let fragment = 0;
    for (let p = 0; p < parts.length; p++) {
      if (start >= parts[p]!.start && start < parts[p]!.end) {
        fragment = p;
        break;
      }
    }
    const part = parts[fragment];
    const before = part ? folded.slice(part.start, start) : '';
    const later = LATER_CUES.test(before) ? 0.5 : 1;
    hits.push({
      start,
      end,
      text: message.slice(start, end),
      weight: w * later * (fragmentWeight[fragment] ?? 1),
      base: w,
      fragment,
    });
  };
  // Heaviest cues first: a phrase matched by several cues counts once, at its strongest weight. Each
  // cue's global regex is read with `exec` on itself (`matchAll` clones it on every call).
  for (const cue of heaviestFirst(cues)) {
    if (cue.starts && !active.has(cue)) continue;
    const re = cue.re;
    re.lastIndex = 0;
    for (let match = re.exec(folded); match !== null; match = re.exec(folded)) {
      const length = match[0].length;
      if (length === 0) re.lastIndex++;
      add(match.index, match.index + length, cue.w);
    }
  }
  // Words of the lexicon the phrase cues did not already cover count at their word weight.
  if (words) for (const word of words) add(word.start, word.end, word.w * WORD_WEIGHT);
  return hits.sort((a, b) => a.start - b.start);
}

const sortedCues = new WeakMap<Cue[], Cue[]>();
function heaviestFirst(cues: Cue[]): Cue[] {
  let sorted = sortedCues.get(cues);
  if (!sorted) {
    sorted = [...cues].sort((a, b) => b.w - a.w);
    sortedCues.set(cues, sorted);
  }
  return sorted;
}

function total(hits: Hit[]): number {
  let sum = 0;
  for (let i = 0; i < hits.length; i++) sum += hits[i]!.weight;
  return sum;
}

/** The value with the highest score at or over `threshold`; ties go to `preferred`, then to the earliest mention. */
function best<T extends string>(
  values: readonly T[],
  hitsOf: (value: T) => Hit[],
  threshold: number,
  preferred: T[] = [],
): T | null {
  let winner: T | null = null;
  let winnerScore = 0;
  let winnerStart = Number.POSITIVE_INFINITY;
  for (const value of values) {
    const hits = hitsOf(value);
    const score = total(hits) + (preferred.includes(value) && hits.length > 0 ? 0.5 : 0);
    const start = hits[0]?.start ?? Number.POSITIVE_INFINITY;
    if (score < threshold) continue;
    if (score > winnerScore + 1e-9 || (Math.abs(score - winnerScore) < 1e-9 && start < winnerStart)) {
      winner = value;
      winnerScore = score;
      winnerStart = start;
    }
  }
  return winner;
}
