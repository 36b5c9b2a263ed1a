import { AUDIENCES, INDUSTRIES, INITIAL_CHOICES, PROTOTYPE_KINDS, SERVICES, STYLES } from '../../wizard.ts';
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
export const LEAD_SUBMIT_WINDOW_MS = 60 * 60 * 1000;

/** The header a trusted caller (the sales agent, with X-Chat-Api-Key) names the visitor's IP in. */
export const END_USER_IP_HEADER = 'X-End-User-IP';

/**
 * `X-Chat-Session-Id`, where a trusted caller names the chat session the lead comes from: at most as
 * long as the chat's own session ids. Erasing the lead erases that session.
 */
export const CHAT_SESSION_ID_MAX = 128;

/** An identical submission (same e-mail, same answers) within this window returns the first lead. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** Pagination of GET /api/leads. */
export const LEAD_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

/** The wizard's enumerations (ai-api.md, `fields` table) and the prototype kinds. */
export const WIZARD_VALUES = {
  initial_choice: INITIAL_CHOICES,
  service: SERVICES,
  industry: INDUSTRIES,
  audience: AUDIENCES,
  style: STYLES,
  prototype: PROTOTYPE_KINDS,
} as const;

export type WizardEnumField = keyof typeof WIZARD_VALUES;
