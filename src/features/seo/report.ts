import type { RedirectHop } from '../../integrations/safe-fetch/safe-fetch.ts';
import type { Severity } from './limits.ts';

/** What the checks look at: the fetched page and what was learnt about its site. */
export interface PageInput {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  redirects: RedirectHop[];
  headers: Record<string, string>;
  /** The body when it is HTML, else null. */
  html: string | null;
  robots: 'allowed' | 'disallowed' | 'missing' | 'unreachable';
  sitemap: { found: boolean; url: string | null };
}

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  fix: string;
}

export interface SeoStats {
  wordCount: number;
  links: { total: number; internal: number; external: number };
  images: { total: number; withoutAlt: number };
  headings: Record<'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6', number>;
}

export interface SeoReport {
  score: number;
  findings: Finding[];
  passed: string[];
  stats: SeoStats;
  page: { title: string | null; description: string | null; canonical: string | null; lang: string | null };
}

/** What a check found wrong, or null when the page passes it. */
export type Problem = Omit<Finding, 'id'> | null;

/** One check: its id (in `findings` or `passed`) and the rule, a pure function of what it looks at. */
export type Check<Subject> = readonly [id: string, rule: (subject: Subject) => Problem];
