import { type Analysis, analyze, type Hit } from './analyze.ts';
import { fold, isPlaceholder, sliceWhole, trimLeadIn } from './text.ts';
import type {
  Confidence,
  Industry,
  Language,
  PlanPath,
  RefineFields,
  SectionKey,
  Service,
} from './vocabulary.ts';
import { isOneOf, PATHS, SECTION_KEYS, SERVICES } from './vocabulary.ts';

/**
 * The built-in offline engine: deterministic, bilingual, and built only from the visitor's own
 * words. It answers in the same JSON shape the model is asked for (contract.md), so its output goes
 * through the same server-side rules as a model's.
 */
export interface OfflineRecommendation {
  summary: string;
  recommendedPath: PlanPath;
  rationale: { summary: string; signals: string[] };
  alternatives: { path: PlanPath; whenItWouldFit: string }[];
  detectedNeeds: string[];
  missingInformation: string[];
  confidence: Confidence;
}

export interface OfflineRefinement {
  summary: string;
  sections: { key: SectionKey; items: string[] }[];
  suggestions: string[];
  fields: RefineFields;
}

/** Facts the visitor confirmed in the wizard; they count like words of the message. */
export interface ConfirmedFacts {
  initialChoice?: string;
  service?: string;
  goal?: string;
  industry?: string;
  audience?: string;
  style?: string;
  features?: string[];
}

export function offlineRecommend(
  message: string,
  language: Language,
  facts: ConfirmedFacts = {},
): OfflineRecommendation {
  const text = [message, ...factSentences(facts)].join('. ');
  const a = analyze(text, { service: isOneOf(SERVICES, facts.service) ? facts.service : undefined });
  const t = TEXT[language];
  const needs = detectedNeeds(a);
  const confidence: Confidence =
    a.path === 'Technical Review'
      ? 'low'
      : a.serviceScore >= 4 || (a.path === 'Custom' && a.evidence.length >= 3)
        ? 'high'
        : 'medium';
  const alternatives = PATHS.filter((p) => p !== a.path && a.pathScores[p] >= 1.5)
    .sort((x, y) => a.pathScores[y] - a.pathScores[x])
    .slice(0, 2)
    .map((path) => ({ path, whenItWouldFit: t.whenItFits[path] }));
  if (a.path !== 'Technical Review' && confidence !== 'high' && alternatives.length < 2) {
    alternatives.push({ path: 'Technical Review', whenItWouldFit: t.whenItFits['Technical Review'] });
  }
  return {
    summary: requestSummary(a, language),
    recommendedPath: a.path,
    rationale: { summary: rationale(a, language, needs), signals: signals(a, facts) },
    alternatives,
    detectedNeeds: needs,
    missingInformation: missing(a, language).map((key) => t.dimension[key]),
    confidence,
  };
}

export function offlineRefine(message: string, language: Language): OfflineRefinement {
  const a = analyze(message);
  const t = TEXT[language];
  const sections = SECTION_KEYS.map((key) => ({
    key,
    items: unique(
      a.sections[key].flatMap((hit) => {
        const item = PHRASE_SECTIONS.has(key) ? phrase(a.message, hit, language) : fragmentItem(a, hit, key);
        return item === null ? [] : [item];
      }),
    ),
  })).filter((s) => s.items.length > 0);
  return {
    summary: summarySentence(a),
    sections,
    suggestions: missing(a, language).map((key) => t.suggestion[key]),
    fields: a.fields,
  };
}

/** Sections whose items are the short phrase that matched rather than the whole clause. */
/**
 * Refine's summary, "one short sentence" of the visitor's own: the first sentence in which the
 * analysis found something (a service, a feature, an audience…), else the first of three words or
 * more ("Hi!" is not a summary), else the whole message. Whitespace is collapsed.
 */
function summarySentence(a: Analysis): string {
  const sentences: { start: number; end: number }[] = [];
  let start = 0;
  for (const boundary of a.message.matchAll(/[.!?]+(?=\s|$)|\n+/g)) {
    const end = boundary.index + boundary[0].length;
    if (a.message.slice(start, end).trim() !== '') sentences.push({ start, end });
    start = end;
  }
  if (a.message.slice(start).trim() !== '') sentences.push({ start, end: a.message.length });
  const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
  if (sentences.length <= 1) return collapse(a.message);
  const hits = Object.values(a.sections).flat();
  const chosen =
    sentences.find((s) => hits.some((h) => h.start >= s.start && h.start < s.end)) ??
    sentences.find((s) => collapse(a.message.slice(s.start, s.end)).split(' ').length >= 3);
  return collapse(chosen ? a.message.slice(chosen.start, chosen.end) : a.message);
}

/**
 * The fragment a hit is in, as an item. Fragments split at colons, so in "Goal: cut processing time"
 * the cue hits the label: its item is what follows the label ("cut processing time"; a placeholder
 * there, "Goal: N/A", is dropped by the post-processing).
 */
function fragmentItem(a: Analysis, hit: Hit, key: SectionKey): string | null {
  const fragment = a.fragments[hit.fragment];
  if (!fragment) return hit.text;
  const next = a.fragments[hit.fragment + 1];
  const isLabel = next && a.message[fragment.end] === ':' && fragment.text.split(/\s+/).length <= 3;
  if (!isLabel) return trimLeadIn(fragment.text);
  if (isPlaceholder(next.text)) return null;
  // A short value needs its label to mean something ("Budget: low"); the goal section names its own.
  return key !== 'goal' && next.text.split(/\s+/).length <= 2
    ? `${fragment.text}: ${next.text}`
    : trimLeadIn(next.text);
}

const PHRASE_SECTIONS = new Set<SectionKey>(['service', 'industry', 'features', 'audience', 'style']);

type Dimension = 'goal' | 'audience' | 'features' | 'timeline' | 'budget' | 'industry';

function missing(a: Analysis, language: Language): Dimension[] {
  const f = a.folded;
  const out: Dimension[] = [];
  if (a.sections.goal.length === 0) out.push('goal');
  if (a.fields.audience === null) out.push('audience');
  if (a.sections.features.length === 0) out.push('features');
  if (
    !/\b(?:by|in|next|before|asap|deadline|month|week|spring|summer|june|september|antes|para|proximo|mes|semana|marzo|septiembre|urgente|cuanto antes)\b/.test(
      f,
    ) ||
    !a.sections.constraints.some((h) => /\d|by|next|asap|antes|proximo|mes|urg|deadline/.test(fold(h.text)))
  )
    out.push('timeline');
  if (
    !/\b(?:budget|presupuesto|cost|costo|precio|pricing|\d+ ?(?:k|usd|eur|dollars|euros|pesos))\b|[$€]/.test(
      f + a.message,
    )
  )
    out.push('budget');
  if (a.fields.industry === null) out.push('industry');
  void language;
  return out.slice(0, 5);
}

function detectedNeeds(a: Analysis): string[] {
  const hits = [...a.sections.service, ...(a.path === 'Custom' ? [] : []), ...a.sections.features].sort(
    (x, y) => x.start - y.start,
  );
  return unique(hits.map((h) => phrase(a.message, h, 'en'))).slice(0, 6);
}

const STOPWORDS = new Set(
  'a an the our my your their we i to for of and or with in on at by is are be it this that some any new nuevo nueva un una unos unas el la los las de del para por con y o en mi mis su sus nuestro nuestra nuestros nuestras que se nos lo al pa'.split(
    ' ',
  ),
);
const KEEP_LEFT = new Set([
  'new',
  'nueva',
  'nuevo',
  'online',
  'mobile',
  'custom',
  'internal',
  'security',
  'marketing',
]);

/** A hit widened to a short noun phrase: one meaningful word on each side ("new marketing website"). */
function phrase(message: string, hit: Hit, _language: Language): string {
  const left = /(\S+)\s+$/u.exec(message.slice(Math.max(0, hit.start - 30), hit.start));
  const right = /^\s+(\S+)/u.exec(message.slice(hit.end, hit.end + 30));
  let start = hit.start;
  let end = hit.end;
  const clean = (w: string) => fold(w).trim();
  if (
    left &&
    /^[\p{L}\p{N}'-]+$/u.test(left[1]!) &&
    (!STOPWORDS.has(clean(left[1]!)) || KEEP_LEFT.has(clean(left[1]!)))
  ) {
    start -= left[0].length;
  }
  if (right && /^[\p{L}\p{N}'-]+$/u.test(right[1]!) && !STOPWORDS.has(clean(right[1]!)))
    end += right[0].length;
  return message.slice(start, end).trim();
}

function signals(a: Analysis, facts: ConfirmedFacts): string[] {
  const order = [
    ...a.evidence,
    ...a.sections.industry,
    ...a.sections.features,
    ...a.sections.audience,
    ...a.sections.style,
    ...a.sections.constraints,
    ...a.sections.goal,
    ...a.sections.context,
  ];
  const stated = factSentences(facts);
  const fromMessage = unique(
    order
      .map((h) => a.fragments[h.fragment])
      .filter((f) => f !== undefined)
      .map((f) => trimLeadIn(f.text))
      .filter((text) => !stated.includes(text)),
  );
  const out = [...fromMessage];
  for (const fragment of a.fragments) {
    if (out.length >= 2) break;
    const text = trimLeadIn(fragment.text);
    if (!out.includes(text)) out.push(text);
  }
  // One long clause ("AI chatbot that answers … and hands over to support agents") is two quotes of
  // the visitor, not one quote and a "few details" statement that would be untrue.
  if (out.length === 1) out.splice(0, 1, ...splitClause(out[0]!));
  return out.slice(0, 6);
}

/** Words a clause can be cut before, keeping both halves readable quotes. */
const CLAUSE_JOINTS = new Set(
  'that which who for with and using including aimed targeting so que para con y usando incluyendo dirigido dirigida dirigidos enfocado enfocada sin'.split(
    ' ',
  ),
);
const MIN_CLAUSE_WORDS = 3;

/**
 * A clause cut in two at the joint word nearest its middle, each half at least MIN_CLAUSE_WORDS
 * words, both verbatim from the message; the clause alone when it has no such joint.
 */
function splitClause(text: string): string[] {
  const words = [...text.matchAll(/\S+/gu)];
  let best: number | null = null;
  for (let i = MIN_CLAUSE_WORDS; i <= words.length - MIN_CLAUSE_WORDS; i++) {
    if (!CLAUSE_JOINTS.has(fold(words[i]![0]))) continue;
    if (best === null || Math.abs(i - words.length / 2) < Math.abs(best - words.length / 2)) best = i;
  }
  if (best === null) return [text];
  const cut = words[best]!.index;
  return [text.slice(0, cut).trim(), text.slice(cut).trim()];
}

/** Wizard facts, written as sentences the analyzer reads with the message. */
function factSentences(facts: ConfirmedFacts): string[] {
  const out: string[] = [];
  for (const key of ['service', 'goal', 'industry', 'audience', 'style'] as const) {
    const value = facts[key];
    if (value) out.push(value.replace(/-/g, ' '));
  }
  if (facts.features?.length) out.push(facts.features.join(', '));
  return out;
}

function requestSummary(a: Analysis, language: Language): string {
  const t = TEXT[language];
  const industry = a.fields.industry && a.fields.industry !== 'other' ? t.industry[a.fields.industry] : '';
  if (a.service) return t.summary(t.service[a.service], industry);
  if (a.path === 'Custom') return t.summary(t.customSoftware, industry);
  const first = a.fragments[0] ? trimLeadIn(a.fragments[0].text) : a.message;
  return t.summaryQuote(first.length > 120 ? `${sliceWhole(first, 119)}…` : first);
}

function rationale(a: Analysis, language: Language, needs: string[]): string {
  const t = TEXT[language];
  const mentioned = needs.slice(0, 2);
  return `${t.why[a.path]}${mentioned.length ? ` ${t.youMentioned(mentioned)}` : ''}`;
}

function unique(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = fold(value).replace(/\s+/g, ' ').trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

interface Texts {
  summary: (need: string, industry: string) => string;
  summaryQuote: (words: string) => string;
  customSoftware: string;
  service: Record<Service, string>;
  industry: Record<Exclude<Industry, 'other'>, string>;
  why: Record<PlanPath, string>;
  youMentioned: (needs: string[]) => string;
  whenItFits: Record<PlanPath, string>;
  dimension: Record<Dimension, string>;
  suggestion: Record<Dimension, string>;
}

const TEXT: Record<Language, Texts> = {
  en: {
    summary: (need, industry) =>
      `You are looking for ${need}${industry ? ` for a ${industry} business` : ''}.`,
    summaryQuote: (words) => `You wrote: “${words}”.`,
    customSoftware: 'custom software that fits how your business works',
    service: {
      'build-website': 'a new website',
      'build-application': 'a new application',
      'infrastructure-scale': 'help with performance and infrastructure',
      'seo-services': 'better visibility in search engines',
      'maintenance-plans': 'ongoing maintenance',
      'development-support': 'development support for an existing product',
      'workflow-automation': 'automation and integration of your workflows',
      'dedicated-team': 'a dedicated development team',
      'strategic-consultation': 'strategic advice on your digital plans',
      'technical-advisory': 'an expert technical review',
    },
    industry: {
      technology: 'technology',
      healthcare: 'healthcare',
      finance: 'finance',
      education: 'education',
      retail: 'retail',
      manufacturing: 'manufacturing',
      realEstate: 'real estate',
      hospitality: 'hospitality',
      nonprofit: 'nonprofit',
    },
    why: {
      Build: 'Build fits because what you describe is a website to design and build.',
      Launch: 'Launch fits because you want to take a new application or product to its first release.',
      Scale:
        'Scale fits because you describe an existing product or site that needs to grow, run faster or be looked after.',
      Custom: 'Custom fits because you need software shaped around your own processes and systems.',
      'Technical Review':
        'A Technical Review fits best because the request is open or asks for an expert assessment before deciding what to build.',
    },
    youMentioned: (needs) => `You mentioned ${needs.map((n) => `“${n}”`).join(' and ')}.`,
    whenItFits: {
      Build: 'If what you need first is a website or landing page.',
      Launch: 'If the goal is to release a new app or product to users.',
      Scale: 'If an existing product needs performance, infrastructure, SEO, maintenance or more developers.',
      Custom: 'If the work is mostly integrations, automation or internal tools.',
      'Technical Review': 'If you would like an expert assessment before committing budget.',
    },
    dimension: {
      goal: 'main goal',
      audience: 'target audience',
      features: 'key features',
      timeline: 'timeline',
      budget: 'budget range',
      industry: 'industry',
    },
    suggestion: {
      goal: 'What is the main goal of the project?',
      audience: 'Who will use it: businesses, consumers, or a specific group?',
      features: 'Which key features must it have?',
      timeline: 'Is there a deadline or launch date?',
      budget: 'Do you have a budget range in mind?',
      industry: 'Which industry is your business in?',
    },
  },
  es: {
    summary: (need, industry) => `Busca ${need}${industry ? ` para una empresa de ${industry}` : ''}.`,
    summaryQuote: (words) => `Escribió: “${words}”.`,
    customSoftware: 'software a la medida de cómo trabaja su empresa',
    service: {
      'build-website': 'un sitio web nuevo',
      'build-application': 'una aplicación nueva',
      'infrastructure-scale': 'ayuda con rendimiento e infraestructura',
      'seo-services': 'más visibilidad en buscadores',
      'maintenance-plans': 'mantenimiento continuo',
      'development-support': 'soporte de desarrollo para un producto existente',
      'workflow-automation': 'automatizar e integrar sus procesos',
      'dedicated-team': 'un equipo de desarrollo dedicado',
      'strategic-consultation': 'asesoría estratégica sobre sus planes digitales',
      'technical-advisory': 'una revisión técnica experta',
    },
    industry: {
      technology: 'tecnología',
      healthcare: 'salud',
      finance: 'finanzas',
      education: 'educación',
      retail: 'comercio',
      manufacturing: 'manufactura',
      realEstate: 'bienes raíces',
      hospitality: 'hostelería',
      nonprofit: 'organización sin fines de lucro',
    },
    why: {
      Build: 'Build encaja porque lo que describe es un sitio web por diseñar y construir.',
      Launch: 'Launch encaja porque quiere llevar una aplicación o un producto nuevo a su primera versión.',
      Scale:
        'Scale encaja porque describe un producto o sitio existente que necesita crecer, ir más rápido o recibir mantenimiento.',
      Custom: 'Custom encaja porque necesita software hecho a la medida de sus procesos y sistemas.',
      'Technical Review':
        'Una Technical Review es lo más adecuado porque la solicitud es abierta o pide una evaluación experta antes de decidir qué construir.',
    },
    youMentioned: (needs) => `Mencionó ${needs.map((n) => `“${n}”`).join(' y ')}.`,
    whenItFits: {
      Build: 'Si lo primero que necesita es un sitio web o una landing page.',
      Launch: 'Si el objetivo es lanzar una app o un producto nuevo.',
      Scale:
        'Si un producto existente necesita rendimiento, infraestructura, SEO, mantenimiento o más desarrolladores.',
      Custom: 'Si el trabajo es sobre todo integraciones, automatización o herramientas internas.',
      'Technical Review': 'Si prefiere una evaluación experta antes de comprometer presupuesto.',
    },
    dimension: {
      goal: 'objetivo principal',
      audience: 'público objetivo',
      features: 'funcionalidades clave',
      timeline: 'plazos',
      budget: 'rango de presupuesto',
      industry: 'sector',
    },
    suggestion: {
      goal: '¿Cuál es el objetivo principal del proyecto?',
      audience: '¿Quién lo usará: empresas, consumidores o un grupo específico?',
      features: '¿Qué funcionalidades clave debe tener?',
      timeline: '¿Hay una fecha límite o de lanzamiento?',
      budget: '¿Tiene en mente un rango de presupuesto?',
      industry: '¿En qué sector está su empresa?',
    },
  },
};
