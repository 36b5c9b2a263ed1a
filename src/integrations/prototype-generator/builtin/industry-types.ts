import { INDUSTRIES } from '../../../wizard.ts';
import type { IconName } from './icons.ts';

export const INDUSTRY_IDS = INDUSTRIES;
export type IndustryId = (typeof INDUSTRY_IDS)[number];

/** Industry-appropriate wording for one language: what the prototype's copy and sample data say. */
export interface IndustryPack {
  /** Brand shown when the lead gave no company. */
  brand: string;
  hero: { eyebrow: string; title: string; lead: string };
  offerings: { icon: IconName; title: string; text: string }[];
  stats: { value: string; label: string }[];
  /** What the app's records are (patients, orders, students …). */
  entity: { one: string; many: string };
  kpis: { label: string; value: string; delta: string; up: boolean }[];
  columns: [string, string, string, string];
  rows: { name: string; detail: string; status: 'ok' | 'pending' | 'new'; amount: string }[];
  products: { name: string; price: string }[];
  articles: string[];
  testimonials: { quote: string; author: string; role: string }[];
  gallery: string[];
  booking: string;
}

const ALIASES: [IndustryId, RegExp][] = [
  ['realEstate', /real ?estate|propert|inmobil|realty|housing|vivienda/],
  ['hospitality', /hospital(ity)|restaur|hotel|food|cafe|travel|touris|turism|\bbars?\b|catering|gastro/],
  ['healthcare', /health|medic|clinic|clinica|dental|salud|pharma|wellness|therap|hospital/],
  ['technology', /tech|software|saas|\bit\b|startup|\bapps?\b|digital|tecnolog|\bai\b/],
  ['finance', /financ|bank|banc|insur|segur|fintech|account|contab|invest/],
  ['education', /educa|school|escuela|universit|academ|course|curso|learn|training|formaci/],
  ['retail', /retail|shop|store|tienda|commerce|fashion|moda|boutique|comercio/],
  ['manufacturing', /manufact|factory|fabric|industr|logist|construct|engineer|ingenier/],
  ['nonprofit', /non ?profit|ngo|ong|charit|foundation|fundaci|sin fines/],
];

export function industryFor(value: string | null | undefined): IndustryId {
  const key = (value ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .trim();
  const exact = INDUSTRY_IDS.find((id) => id.toLowerCase() === key.replace(/ /g, ''));
  if (exact) return exact;
  for (const [id, pattern] of ALIASES) if (pattern.test(key)) return id;
  return 'other';
}
