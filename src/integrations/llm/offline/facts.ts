import { isOneOf, PATHS, type PlanPath, SERVICES, type Service } from './vocabulary.ts';

/**
 * The wizard's answers given with a recommend-plan request: confirmed facts (ai-api.md). The policy
 * (JUDGEMENT.md): they decide when the text says nothing, but a text that clearly says launch wins
 * over `service: build-website`.
 */
export interface Facts {
  initialChoice?: string;
  service?: string;
  goal?: string;
  industry?: string;
  audience?: string;
  style?: string;
  features?: string[];
}

/**
 * The path each wizard service stands for under the policy: a new site or app is Build unless launch
 * framing says otherwise (the text does that), growth and care of something that exists is Scale,
 * automation is Custom, advice is Technical Review.
 */
const FACT_PATH: Record<Service, PlanPath> = {
  'build-website': 'Build',
  'build-application': 'Build',
  'infrastructure-scale': 'Scale',
  'seo-services': 'Scale',
  'maintenance-plans': 'Scale',
  'development-support': 'Scale',
  'dedicated-team': 'Scale',
  'workflow-automation': 'Custom',
  'strategic-consultation': 'Technical Review',
  'technical-advisory': 'Technical Review',
};
const CHOICE_PATH: Record<string, PlanPath> = { create: 'Build', help: 'Scale', advice: 'Technical Review' };

export const PATH_TIED = 3;
/** A message this short says little: the wizard's answers weigh more. */
const FEW_WORDS = 8;
/** Up to this many words, a message the text alone reads as Technical Review "says nothing". */
export const SAYS_NOTHING_WORDS = 12;

/** The path the wizard's answers stand for: the service's, else the initial choice's. */
export function factPath(facts: Facts): PlanPath | null {
  if (isOneOf(SERVICES, facts.service)) return FACT_PATH[facts.service];
  return facts.initialChoice ? (CHOICE_PATH[facts.initialChoice] ?? null) : null;
}

/**
 * The facts' path as class-tied features of the path model, learnt from the labelled messages sent
 * with wizard answers: [the service says this path, … and the message is short, the choice alone says it].
 */
export function pathTied(facts: Facts, wordCount: number): Float64Array {
  const out = new Float64Array(PATHS.length * PATH_TIED);
  const byService = isOneOf(SERVICES, facts.service) ? FACT_PATH[facts.service] : null;
  const byChoice = facts.initialChoice ? (CHOICE_PATH[facts.initialChoice] ?? null) : null;
  PATHS.forEach((path, c) => {
    if (byService === path) {
      out[c * PATH_TIED] = 1;
      if (wordCount <= FEW_WORDS) out[c * PATH_TIED + 1] = 1;
    } else if (!byService && byChoice === path) out[c * PATH_TIED + 2] = 1;
  });
  return out;
}

/** The text the path model reads: the message and the wizard's free-text answers (their words too). */
export function pathText(message: string, facts: Facts): string {
  const extra = [facts.goal, ...(facts.features ?? [])].filter((x): x is string => Boolean(x));
  return extra.length ? `${message}. ${extra.join(', ')}` : message;
}
