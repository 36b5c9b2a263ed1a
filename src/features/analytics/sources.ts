import { ANALYTICS_LIMITS as L } from './limits.ts';
import { SOURCE_TABLE, type SourceCategory, type SourceEntry } from './source-table.ts';

const byHost = new Map<string, SourceEntry>();
const byBrand = new Map<string, SourceEntry>();
const byAlias = new Map<string, SourceEntry>();
const byName = new Map<string, SourceEntry>();
for (const entry of SOURCE_TABLE) {
  for (const host of entry.hosts ?? []) byHost.set(host, entry);
  for (const brand of entry.brands ?? []) byBrand.set(brand, entry);
  for (const alias of entry.aliases ?? []) byAlias.set(alias, entry);
  byName.set(entry.name, entry);
}

/** A country-code or generic ending after a brand label: `google.de`, `google.co.uk`, `google.com.br`. */
const BRAND_ENDING = /^(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/;

/** The known source of a referrer host (already without `www.`), or null. */
function knownHost(host: string): SourceEntry | null {
  let candidate = host;
  for (;;) {
    const entry = byHost.get(candidate);
    if (entry) return entry;
    const dot = candidate.indexOf('.');
    if (dot < 0) return null;
    const brand = byBrand.get(candidate.slice(0, dot));
    if (brand && BRAND_ENDING.test(candidate.slice(dot + 1))) return brand;
    candidate = candidate.slice(dot + 1);
  }
}

/**
 * The source of a visit, as Plausible reads it: a tagged source (`utm_source`, else `ref`) first,
 * named through the table when it is a known alias; else the external referrer's host, named when
 * it is a known search engine, social network or assistant, else the host itself; else null
 * (direct: no referrer, or one from the site itself).
 */
export function sourceOf(taggedSource: string | null, referrerHost: string | null): string | null {
  if (taggedSource !== null) return byAlias.get(taggedSource.toLowerCase())?.name ?? taggedSource;
  if (referrerHost === null) return null;
  return knownHost(referrerHost)?.name ?? referrerHost;
}

/** The category of a source as stored (null: direct). */
export function sourceCategory(source: string | null): SourceCategory {
  if (source === null) return 'direct';
  const entry = byName.get(source);
  if (entry) return entry.category;
  return source.includes('.') ? 'referral' : 'campaign';
}

export interface Utm {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  /** `ref` (or `source`) parameter: a tagged source without UTM, as Plausible reads it. */
  ref: string | null;
}

export const NO_UTM: Utm = { source: null, medium: null, campaign: null, ref: null };

/** The parameters read from a page's query string. */
const TAGS = new Set(['utm_source', 'utm_medium', 'utm_campaign', 'ref', 'source']);

function decode(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // a malformed escape is kept as it came
  }
}

function clip(value: string | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return trimmed.length > L.utmLength ? trimmed.slice(0, L.utmLength) : trimmed;
}

/** UTM tags of a page URL's query string (the query itself is never stored). */
export function utmOf(search: string): Utm {
  if (search.length < 2) return NO_UTM;
  // By hand rather than URLSearchParams (a tenth of a tracked event's CPU on this path); the first
  // value of a name wins, as URLSearchParams.get answers, and names are matched as decoded.
  const found: Record<string, string> = {};
  for (const part of search.slice(search.charCodeAt(0) === 63 ? 1 : 0).split('&')) {
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    if (TAGS.has(name) && found[name] === undefined) found[name] = eq < 0 ? '' : decode(part.slice(eq + 1));
  }
  return {
    source: clip(found.utm_source),
    medium: clip(found.utm_medium),
    campaign: clip(found.utm_campaign),
    ref: clip(found.ref) ?? clip(found.source),
  };
}
