import type { ChatMessage } from '../../integrations/llm/llm-client.ts';
import { fold, foldForSearch } from '../../integrations/llm/offline/text.ts';
import {
  AUDIENCES,
  INDUSTRIES,
  INITIAL_CHOICES,
  type Language,
  PATHS,
  SECTION_KEYS,
  SERVICES,
  STYLES,
} from '../../integrations/llm/offline/vocabulary.ts';
import type { SearchHit } from '../../search/search-index.ts';
import { sliceWhole } from '../../text/slice-whole.ts';
import { AI_LIMITS } from './limits.ts';
import { PLANS } from './plans.ts';
import { type RecommendFields, visitorMessage } from './schemas.ts';

const LANGUAGE_NAME: Record<Language, string> = { en: 'English', es: 'Spanish' };

const PATH_GUIDE = PATHS.map(
  (path) => `- ${path}: ${PLANS[path].en.bestFor} ${PLANS[path].en.description}`,
).join('\n');

/** The agency's policy for the paths (JUDGEMENT.md, "The five service paths"), as the model reads it. */
const PATH_POLICY = [
  'How to choose:',
  '- Launch beats Build when the request has launch or MVP framing: an MVP, a launch date, demo day, beta to public, go-live work (domain, SSL, store publishing), an investor or pilot deadline. A shop opening date is not a product launch; courses or campaigns a growing business launches again and again are growth (Scale).',
  '- Custom beats Build when integration or automation is the core of the ask (systems kept in sync, processes automated, IoT with dashboards, document pipelines, bots tied to stock).',
  '- A named growth, load or capacity problem is Scale; a request for a review, audit, second opinion or diagnosis is Technical Review; greetings, "what do you do" and unclear needs are Technical Review.',
  '- The confirmed facts decide when the text says nothing ("when can we talk?"); a text that clearly says otherwise (launch, integration) wins over them.',
  '- Every signal quotes or closely paraphrases the visitor\'s words; a remark about the message itself is not a signal. detectedNeeds are noun phrases the visitor expressed ("online ordering"), never a bare verb. missingInformation never asks for something the visitor already said.',
].join('\n');

/** The policy for the wizard fields and sections (JUDGEMENT.md, "The wizard fields"). */
const REFINE_POLICY = [
  'Strict fields: a field is null unless the text clearly indicates a value.',
  '- initialChoice: create when something new is built (a redesign is a new site); help for support, maintenance or fixes of something that exists (SEO or infrastructure for an existing site included); advice for consultation, an audit, a review or a decision. Pure automation and staffing requests: null.',
  '- service: one value only when one service is clearly asked for; ambiguous asks are null.',
  '- industry: the sector when stated; other for a stated sector outside the list (law, construction, logistics, agriculture, photography…). Accounting is finance, a vet is healthcare, a SaaS or game studio is technology, a charity or NGO is nonprofit.',
  '- audience: only when the text names the segment (businesses → b2b; consumers → b2c; teenagers, children, students → youngAudience; doctors, nurses, site managers → specializedProfessionals; everyone, all ages → generalAudience). Users mentioned only as actors ("patients can book") give null.',
  '- style: only when a look is described.',
  'Sections, each item a short phrase copied from the text: service (kind of work), goal (a stated outcome or purpose), industry, features (concrete functionality, one item each), audience (who the users or customers are, even when the field is null), style, constraints (budget, deadline, required technology, team size, duration), context (the current situation or history).',
].join('\n');

/** The JSON shape each prompt shows the model, its values describing what to write. */
const RECOMMEND_SHAPE = {
  summary: 'one short sentence restating the request',
  recommendedPath: PATHS.join(' | '),
  rationale: {
    summary: `one short paragraph, at most ${AI_LIMITS.rationaleSummaryMax} characters`,
    signals: [
      `2 to ${AI_LIMITS.signalsMax} short evidence items, each quoting or closely paraphrasing the visitor's own words`,
    ],
  },
  alternatives: [
    {
      path: 'another allowed path (at most 2, never the recommended one)',
      whenItWouldFit: 'one sentence',
    },
  ],
  detectedNeeds: ['short noun phrases the visitor expressed'],
  missingInformation: ['short noun phrases of useful context the visitor did not give'],
  confidence: 'high (explicit matching needs) | medium | low (Technical Review or weak signals)',
};

const REFINE_SHAPE = {
  summary: `one short sentence with facts from the visitor only (at most ${AI_LIMITS.refineSummaryMax} characters)`,
  sections: [{ key: SECTION_KEYS.join(' | '), items: ['short noun phrases or fragments from the text'] }],
  suggestions: [
    `at most ${AI_LIMITS.suggestionsMax} short hints about missing information; [] when nothing is missing`,
  ],
  fields: {
    initialChoice: `${INITIAL_CHOICES.join(' | ')} | null`,
    service: `${SERVICES.join(' | ')} | null`,
    industry: `${INDUSTRIES.join(' | ')} | null`,
    audience: `${AUDIENCES.join(' | ')} | null`,
    style: `${STYLES.join(' | ')} | null`,
  },
};

/**
 * Every text of those shapes, folded: a model that copies the example ("one sentence", "short noun
 * phrases the visitor expressed") has written placeholder text, which the post-processing drops.
 */
const TEMPLATE_TEXTS: ReadonlySet<string> = new Set(
  [RECOMMEND_SHAPE, REFINE_SHAPE].flatMap(function leaves(value: unknown): string[] {
    if (typeof value === 'string') return [foldForSearch(value)];
    return value !== null && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [];
  }),
);
const TEMPLATE_MAX_LENGTH = Math.max(...[...TEMPLATE_TEXTS].map((text) => text.length)) + 20;
const FIRST_WORD = /[\p{L}\p{N}]+/u;
/** The first words of those texts: most strings are told apart by theirs, without folding all of it. */
const TEMPLATE_FIRST_WORDS: ReadonlySet<string> = new Set(
  [...TEMPLATE_TEXTS].map((text) => text.split(' ')[0]!),
);

/** True when `text` is one of the prompts' example values, copied by the model instead of an answer. */
export function isPromptTemplate(text: string): boolean {
  if (text.length > TEMPLATE_MAX_LENGTH) return false;
  const first = FIRST_WORD.exec(text);
  if (first === null || !TEMPLATE_FIRST_WORDS.has(fold(first[0]))) return false;
  return TEMPLATE_TEXTS.has(foldForSearch(text));
}

/**
 * The recommend-plan prompt: the task, the allowed values, the JSON shape, the wizard answers as
 * confirmed facts, the top search-index chunks as context, and the answer language. The visitor's
 * text goes in its own user message, never spliced into the instructions.
 */
export function recommendPrompt(input: {
  message: string;
  language: Language;
  fields?: RecommendFields;
  context: SearchHit[];
}): ChatMessage[] {
  const facts = confirmedFacts(input.fields);
  // Cut without splitting an emoji: half of one is a lone surrogate, which JSON.stringify writes as a
  // `\ud83d` escape that strict JSON readers (OpenAI's API, serde, llama.cpp) refuse: a 502.
  const context = input.context
    .map((hit, i) =>
      `[${i + 1}] ${hit.title ?? hit.source}: ${sliceWhole(hit.text, AI_LIMITS.contextChunkChars)}`.toWellFormed(),
    )
    .join('\n');
  const system = [
    "You advise visitors of a software agency. Recommend exactly ONE service path for the visitor's request.",
    `Allowed paths (use the exact spelling):\n${PATH_GUIDE}`,
    PATH_POLICY,
    'Answer with ONE JSON object and nothing else, in this shape:',
    JSON.stringify(RECOMMEND_SHAPE),
    'Do not invent facts. Do not describe the plan itself: the website adds it. Use Technical Review when the request is vague or asks for an assessment.',
    facts ? `Confirmed facts from the visitor's wizard answers (treat them as true):\n${facts}` : '',
    context ? `Background about the agency's services (from its own pages):\n${context}` : '',
    `Write every text value in ${LANGUAGE_NAME[input.language]}; keep the path names and the JSON keys in English.`,
  ];
  return [
    { role: 'system', content: system.filter(Boolean).join('\n\n') },
    { role: 'user', content: input.message },
  ];
}

/** The refine prompt: itemise the visitor's description and classify it into the wizard enumerations. */
export function refinePrompt(input: { message: string; language: Language }): ChatMessage[] {
  const system = [
    'You turn a project description written by a visitor of a software agency into an itemised breakdown, and classify it.',
    'Answer with ONE JSON object and nothing else, in this shape:',
    JSON.stringify(REFINE_SHAPE),
    `Only include a section when the visitor touched that dimension; at most ${AI_LIMITS.sectionItemsMax} items each; no long paragraphs.`,
    REFINE_POLICY,
    'Never invent facts.',
    `Write every text value in ${LANGUAGE_NAME[input.language]}; keep keys and enumeration values exactly as given.`,
  ];
  return [
    { role: 'system', content: system.join('\n\n') },
    { role: 'user', content: input.message },
  ];
}

/** One line per fact; a value is the visitor's text, so it is made well-formed and kept on its line. */
function confirmedFacts(fields: RecommendFields | undefined): string {
  if (!fields) return '';
  const lines: string[] = [];
  for (const key of ['initialChoice', 'service', 'goal', 'industry', 'audience', 'style'] as const) {
    const value = factText(fields[key]);
    if (value) lines.push(`- ${key}: ${value}`);
  }
  const features = (fields.features ?? []).map(factText).filter(Boolean);
  if (features.length) lines.push(`- features: ${features.join('; ')}`);
  return lines.join('\n');
}

function factText(value: string | null | undefined): string {
  return value ? visitorMessage(value).replace(/\s+/g, ' ') : '';
}
