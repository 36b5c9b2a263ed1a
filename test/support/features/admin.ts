import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/database.ts';
import { writeBatch } from '../../../src/features/analytics/store.ts';
import {
  type AnalyticsEventRow,
  type TrackedEvent,
  trackedRow,
} from '../../../src/features/analytics/tables.ts';
import {
  insertLead,
  type LeadClassification,
  type LeadStatus,
  type NewLead,
} from '../../../src/features/leads/store.ts';

/** Shared set-up of the admin tests: keys, hostile strings and lead seeding. */
export const ADMIN_KEY = 'admin-test-key-0123456789';
export const CHAT_KEY = 'chat-test-key-0123456789';
export const ADMIN_ENV = { ADMIN_API_SECRET: ADMIN_KEY, CHAT_API_SECRET: CHAT_KEY };

export const XSS_NAME = '<img src=x onerror=alert(1)>';
export const XSS_COMPANY = '<script>alert(2)</script>';
export const VENDOR_GOAL =
  'Hello, we are a software development agency from abroad. We offer dedicated developers and white-label outsourcing.';

/** A wizard submission for POST /api/leads (trusted path: send it with X-Chat-Api-Key). */
export function submission(
  personal: { name: string; email: string; company?: string },
  steps: Record<string, unknown> = {},
) {
  return {
    personal: {
      name: personal.name,
      email_address: personal.email,
      company: personal.company,
      phone_number: '+57 300 000 0000',
      position: 'Founder',
    },
    steps: {
      initial_choice: 'create',
      service: 'build-website',
      prototype: 'landing',
      goal: 'More bookings online',
      industry: 'hospitality',
      features: ['booking', 'payments'],
      style: 'modernMinimalist',
      audience: 'b2c',
      ...steps,
    },
    source_url: 'https://agency.example/wizard',
    language: 'en',
  };
}

/** Inserts a lead straight into the store with a chosen creation time (for query tests). */
export async function insertTestLead(
  db: Db,
  fields: {
    name: string;
    email: string;
    company?: string | null;
    status?: LeadStatus;
    classification?: LeadClassification;
    createdAt: number;
    prototypeKind?: 'landing' | 'application' | null;
  },
): Promise<string> {
  const id = randomUUID();
  const lead: NewLead = {
    id,
    status: fields.status ?? 'new',
    classification: fields.classification ?? 'lead',
    classificationReason: 'test',
    classifiedBy: 'builtin',
    classificationScore: 0.9,
    classificationReasons: ['test'],
    name: fields.name,
    email: fields.email,
    phone: null,
    company: fields.company ?? null,
    position: null,
    steps: { service: 'build-website', goal: 'A test' },
    language: 'en',
    sourceUrl: null,
    prototypeKind: fields.prototypeKind ?? null,
    clientIpHash: null,
    createdAt: fields.createdAt,
    trusted: false,
    submissionKey: null,
  };
  await insertLead(db, lead);
  return id;
}

const PAGES = ['/', '/services/web', '/pricing', '/wizard', '/blog/seo-basics', '/contact'];
const COUNTRIES = ['CO', 'US', 'ES', 'MX', 'DE', null];
const REFERRERS = [null, 'google.com', 'linkedin.com', null, 'duckduckgo.com'];
const SOURCES: Record<string, string> = {
  'google.com': 'Google',
  'linkedin.com': 'LinkedIn',
  'duckduckgo.com': 'DuckDuckGo',
};
const CLIENTS = [
  { device: 'desktop', browser: 'Chrome', os: 'Windows' },
  { device: 'mobile', browser: 'Safari', os: 'iOS' },
  { device: 'desktop', browser: 'Firefox', os: 'Linux' },
];

/**
 * Writes `days` days of page views (ending today, UTC) through the analytics store, with a
 * deterministic pattern; returns how many events it wrote.
 */
export async function seedAnalytics(db: Db, days: number, now = Date.now()): Promise<number> {
  const rows: TrackedEvent[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const at = now - d * 86_400_000;
    const day = new Date(at).toISOString().slice(0, 10);
    const visitors = 4 + (((days - d) * 7) % 9);
    for (let v = 0; v < visitors; v++) {
      const views = 1 + ((v + d) % 3);
      for (let i = 0; i < views; i++) {
        const referrer = REFERRERS[(v + i) % REFERRERS.length] ?? null;
        const client = CLIENTS[v % CLIENTS.length]!;
        const lead = i === views - 1 && v % 5 === 1;
        const row: AnalyticsEventRow = {
          id: randomUUID(),
          type: lead ? 'lead' : i === views - 1 && v % 4 === 0 ? 'cta_click' : 'page_view',
          page: PAGES[(v * 3 + i + d) % PAGES.length] as string,
          referrer: referrer ? `https://${referrer}/` : null,
          referrer_host: referrer,
          title: null,
          properties: null,
          session_id: null,
          country: COUNTRIES[(v + d) % COUNTRIES.length] ?? null,
          visitor_hash: `visitor-${day}-${v}`,
          day,
          created_at: at + i * 60_000,
          visit_id: null,
          source: referrer ? (SOURCES[referrer] ?? referrer) : null,
          utm_source: v % 3 === 0 ? 'newsletter' : null,
          utm_medium: v % 3 === 0 ? 'email' : null,
          utm_campaign: v % 3 === 0 ? 'autumn-offer' : null,
          ...client,
        };
        rows.push({ ...trackedRow(row), conversion: lead });
      }
    }
  }
  await writeBatch(db, rows, 3);
  return rows.length;
}
