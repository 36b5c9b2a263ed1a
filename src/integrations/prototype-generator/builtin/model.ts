import { clip } from '../html.ts';
import type { PrototypeBrief, PrototypeLanguage } from '../types.ts';
import { type RecognisedFeatures, recogniseFeatures } from './features.ts';
import { INDUSTRIES_EN } from './industries-en.ts';
import { INDUSTRIES_ES } from './industries-es.ts';
import { type IndustryId, type IndustryPack, industryFor } from './industry-types.ts';
import { type Theme, themeFor } from './themes.ts';
import { type AudienceId, audienceFor, type UiText, uiText } from './ui-text.ts';

/** Everything a renderer needs, resolved once from the brief. Strings here are raw: renderers escape. */
export interface PageModel {
  brief: PrototypeBrief;
  language: PrototypeLanguage;
  theme: Theme;
  industry: IndustryId;
  pack: IndustryPack;
  ui: UiText;
  features: RecognisedFeatures;
  audience: AudienceId;
  /** The lead's company, or the industry's sample brand. */
  brand: string;
  initials: string;
  /** Who the prototype was prepared for (company, else the person). */
  preparedFor: string;
  goal: string;
  firstName: string;
  personInitials: string;
  /** A stable number from the lead id, to vary sample data between prototypes. */
  seed: number;
}

export function initialsOf(text: string): string {
  const words = text
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function buildModel(brief: PrototypeBrief): PageModel {
  const language = brief.language;
  const industry = industryFor(brief.industry);
  const pack = (language === 'es' ? INDUSTRIES_ES : INDUSTRIES_EN)[industry];
  const company = clip(brief.company, 48);
  const person = clip(brief.name, 60);
  const brand = company || pack.brand;
  return {
    brief,
    language,
    theme: themeFor(brief.style),
    industry,
    pack,
    ui: uiText(language),
    features: recogniseFeatures(brief.features),
    audience: audienceFor(brief.audience),
    brand,
    initials: initialsOf(brand),
    preparedFor: company || person,
    goal: clip(brief.goal, 160),
    firstName: clip(person.split(' ')[0] ?? '', 24),
    personInitials: person ? initialsOf(person) : initialsOf(brand),
    seed: hash(brief.leadId),
  };
}
