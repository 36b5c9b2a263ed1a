/** The AI routes' fixed enumerations (ai-api.md); the wizard's own ones live in src/wizard.ts. */
export const PATHS = ['Build', 'Launch', 'Scale', 'Custom', 'Technical Review'] as const;
export type PlanPath = (typeof PATHS)[number];

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CONFIDENCE = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCE)[number];

export {
  AUDIENCES,
  type Audience,
  INDUSTRIES,
  INITIAL_CHOICES,
  type Industry,
  type InitialChoice,
  SERVICES,
  type Service,
  STYLES,
  type Style,
} from '../../../wizard.ts';

import type { Audience, Industry, InitialChoice, Service, Style } from '../../../wizard.ts';

export interface RefineFields {
  initialChoice: InitialChoice | null;
  service: Service | null;
  industry: Industry | null;
  audience: Audience | null;
  style: Style | null;
}

export const SECTION_KEYS = [
  'service',
  'goal',
  'industry',
  'features',
  'audience',
  'style',
  'constraints',
  'context',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

/**
 * The service safety net: the services each initial choice can lead to. A `service` outside its
 * `initialChoice`'s row contradicts it and becomes null (the full table is in docs/ai.md).
 */
export const SERVICES_BY_CHOICE: Record<InitialChoice, readonly Service[]> = {
  help: [
    'development-support',
    'infrastructure-scale',
    'seo-services',
    'maintenance-plans',
    'workflow-automation',
    'dedicated-team',
  ],
  create: ['build-website', 'build-application', 'workflow-automation', 'dedicated-team'],
  advice: ['strategic-consultation', 'technical-advisory'],
};

/** The initial choice a service belongs to first (used when the text names a service only). */
export const PRIMARY_CHOICE: Record<Service, InitialChoice> = {
  'development-support': 'help',
  'infrastructure-scale': 'help',
  'seo-services': 'help',
  'maintenance-plans': 'help',
  'workflow-automation': 'help',
  'build-website': 'create',
  'build-application': 'create',
  'dedicated-team': 'create',
  'strategic-consultation': 'advice',
  'technical-advisory': 'advice',
};

/** The service path a wizard service leads to. */
export const PATH_OF_SERVICE: Record<Service, PlanPath> = {
  'build-website': 'Build',
  'build-application': 'Launch',
  'infrastructure-scale': 'Scale',
  'maintenance-plans': 'Scale',
  'development-support': 'Scale',
  'dedicated-team': 'Scale',
  'seo-services': 'Scale',
  'workflow-automation': 'Custom',
  'strategic-consultation': 'Technical Review',
  'technical-advisory': 'Technical Review',
};

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
