import type { ServerResponse } from 'node:http';
import { type RecordedRequest, type StandIn, sendJson, startStandIn } from './stand-in.ts';

/**
 * A local stand-in for Pipedrive's API (tests only): persons, organizations and deals on API v2
 * (`/api/v2/…`; their retired v1 endpoints answer 410), notes on v1, held in memory; search by exact
 * e-mail / name and by title substring, a deal's notes listed; the token checked in the `x-api-token`
 * header only. `fail` makes chosen calls answer 500 (e.g. `() => true` for an outage, or only
 * `POST /v1/notes`).
 */
export interface PipedriveStandIn {
  url: string;
  token: string;
  standIn: StandIn;
  persons: { id: number; name: string; email: string; org_id: number | null }[];
  organizations: { id: number; name: string }[];
  deals: { id: number; title: string; person_id: number; org_id: number | null }[];
  notes: { id: number; content: string; deal_id: number }[];
  fail: (req: RecordedRequest) => boolean;
  /** Milliseconds every call waits before it is answered (a slow CRM). */
  delayMs: number;
  /** Calls that reached the API (method and path without the query). */
  calls(): string[];
  close(): Promise<void>;
}

export async function startPipedriveStandIn(token = 'pd-test-token'): Promise<PipedriveStandIn> {
  let nextId = 100;
  const state: PipedriveStandIn = {
    url: '',
    token,
    standIn: undefined as unknown as StandIn,
    persons: [],
    organizations: [],
    deals: [],
    notes: [],
    fail: () => false,
    delayMs: 0,
    calls: () => state.standIn.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`),
    close: () => state.standIn.close(),
  };
  const handler = async (req: RecordedRequest, res: ServerResponse) => {
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const url = new URL(req.url, 'http://stand-in');
    if (req.headers['x-api-token'] !== token) {
      return sendJson(res, 401, { success: false, error: 'unauthorized access' });
    }
    if (state.fail(req)) return sendJson(res, 500, { success: false, error: 'internal error' });
    const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    // API v2 validates strictly: ids are numbers (no coercion from strings), e-mails a list of objects.
    const strictProblem =
      url.pathname.startsWith('/api/v2/') &&
      ((['org_id', 'person_id'] as const).some((k) => k in body && typeof body[k] !== 'number') ||
        ('emails' in body &&
          !(Array.isArray(body.emails) && body.emails.every((e) => typeof e?.value === 'string'))) ||
        'email' in body ||
        'phone' in body);
    if (strictProblem) return sendJson(res, 400, { success: false, error: 'Validation failed' });
    const term = (url.searchParams.get('term') ?? '').toLowerCase();
    const search = (items: { id: number }[]) =>
      sendJson(res, 200, {
        success: true,
        data: { items: items.map((item) => ({ result_score: 1, item })) },
      });
    const created = (data: { id: number }) => sendJson(res, 201, { success: true, data });
    const key = `${req.method} ${url.pathname}`;
    if (/^\/v1\/(?:persons|organizations|deals)(?:\/|$)/.test(url.pathname)) {
      return sendJson(res, 410, { success: false, error: 'This endpoint is retired; use API v2.' });
    }
    switch (key) {
      case 'GET /api/v2/persons/search':
        return search(state.persons.filter((p) => p.email.toLowerCase() === term));
      case 'GET /api/v2/organizations/search':
        return search(state.organizations.filter((o) => o.name.toLowerCase() === term));
      case 'GET /api/v2/deals/search':
        return search(state.deals.filter((d) => d.title.toLowerCase().includes(term)));
      case 'GET /v1/notes': {
        const dealId = Number(url.searchParams.get('deal_id'));
        return sendJson(res, 200, { success: true, data: state.notes.filter((n) => n.deal_id === dealId) });
      }
      case 'POST /api/v2/persons': {
        const email = (body.emails as { value: string }[] | undefined)?.[0]?.value ?? '';
        const person = {
          id: nextId++,
          name: String(body.name),
          email,
          org_id: (body.org_id as number) ?? null,
        };
        state.persons.push(person);
        return created(person);
      }
      case 'POST /api/v2/organizations': {
        const org = { id: nextId++, name: String(body.name) };
        state.organizations.push(org);
        return created(org);
      }
      case 'POST /api/v2/deals': {
        const deal = {
          id: nextId++,
          title: String(body.title),
          person_id: Number(body.person_id),
          org_id: (body.org_id as number) ?? null,
        };
        state.deals.push(deal);
        return created(deal);
      }
      case 'POST /v1/notes': {
        const note = { id: nextId++, content: String(body.content), deal_id: Number(body.deal_id) };
        state.notes.push(note);
        return created(note);
      }
      default:
        return sendJson(res, 404, { success: false, error: `unknown ${key}` });
    }
  };
  state.standIn = await startStandIn(handler);
  state.url = state.standIn.url;
  return state;
}
