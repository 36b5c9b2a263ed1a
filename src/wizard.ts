/**
 * The project wizard's fixed enumerations (ai-api.md, the `fields` table), in one place: the AI
 * routes classify into them, lead submissions are validated against them, and the prototype
 * generator has wording for each industry and style.
 */
export const INITIAL_CHOICES = ['help', 'create', 'advice'] as const;
export const SERVICES = [
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
] as const;
export const INDUSTRIES = [
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
] as const;
export const AUDIENCES = [
  'b2b',
  'b2c',
  'youngAudience',
  'specializedProfessionals',
  'generalAudience',
] as const;
export const STYLES = [
  'modernMinimalist',
  'boldColorful',
  'elegantSophisticated',
  'funCreative',
  'professionalCorporate',
] as const;

export const PROTOTYPE_KINDS = ['landing', 'application'] as const;

export type InitialChoice = (typeof INITIAL_CHOICES)[number];
export type Service = (typeof SERVICES)[number];
export type Industry = (typeof INDUSTRIES)[number];
export type Audience = (typeof AUDIENCES)[number];
export type Style = (typeof STYLES)[number];

export type PrototypeKind = (typeof PROTOTYPE_KINDS)[number];
