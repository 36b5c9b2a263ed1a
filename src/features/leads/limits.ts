/** Request limits of the leads routes: the schemas, the docs and the tests all import these. */
export const LEAD_LIMITS = {
  name: 200,
  email: 254,
  phone: 50,
  company: 200,
  position: 200,
  /** Enumerated wizard values (service, industry, …) and each feature item. */
  wizardValue: 120,
  goal: 2000,
  features: 30,
  recaptchaToken: 4096,
  sourceUrl: 2048,
  language: 16,
  /** Query `email` of the lookup. */
  lookupEmail: 254,
} as const;

/** Public-write rate limit of POST /api/leads per client IP (generous: a person submits a few times). */
export const LEAD_SUBMIT_RATE = { limit: 30, windowMs: 60 * 60 * 1000 } as const;

/** An identical submission (same e-mail, same answers) within this window returns the first lead. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** Pagination of GET /api/leads. */
export const LEAD_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

/** The wizard's enumerations (ai-api.md, `fields` table) and the prototype kinds. */
export const WIZARD_VALUES = {
  initial_choice: ['help', 'create', 'advice'],
  service: [
    'development-support',
    'infrastructure-scale',
    'seo-services',
    'maintenance-plans',
    'workflow-automation',
    'build-website',
    'build-application',
    'strategic-consultation',
    'technical-advisory',
    'dedicated-team',
  ],
  industry: [
    'technology',
    'healthcare',
    'finance',
    'education',
    'retail',
    'manufacturing',
    'realEstate',
    'hospitality',
    'nonprofit',
    'other',
  ],
  audience: ['b2b', 'b2c', 'youngAudience', 'specializedProfessionals', 'generalAudience'],
  style: ['modernMinimalist', 'boldColorful', 'elegantSophisticated', 'funCreative', 'professionalCorporate'],
  prototype: ['landing', 'application'],
} as const;

export type WizardEnumField = keyof typeof WIZARD_VALUES;
