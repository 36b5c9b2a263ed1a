import type { ServerResponse } from 'node:http';
import { type RecordedRequest, type StandIn, sendJson, startStandIn } from '../../testing/stand-in.ts';

/**
 * A local stand-in for Pipedrive's v1 API (tests only): persons, organizations, deals and notes held
 * in memory, search by exact e-mail / name and by title substring, a deal's notes listed, `api_token` checked. `fail` makes
 * chosen calls answer 500 (e.g. `() => true` for an outage, or only `POST /v1/notes`).
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
    if (url.searchParams.get('api_token') !== token) {
      return sendJson(res, 401, { success: false, error: 'unauthorized access' });
    }
    if (state.fail(req)) return sendJson(res, 500, { success: false, error: 'internal error' });
    const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    const term = (url.searchParams.get('term') ?? '').toLowerCase();
    const search = (items: { id: number }[]) =>
      sendJson(res, 200, {
        success: true,
        data: { items: items.map((item) => ({ result_score: 1, item })) },
      });
    const created = (data: { id: number }) => sendJson(res, 201, { success: true, data });
    const key = `${req.method} ${url.pathname}`;
    switch (key) {
      case 'GET /v1/persons/search':
        return search(state.persons.filter((p) => p.email.toLowerCase() === term));
      case 'GET /v1/organizations/search':
        return search(state.organizations.filter((o) => o.name.toLowerCase() === term));
      case 'GET /v1/deals/search':
        return search(state.deals.filter((d) => d.title.toLowerCase().includes(term)));
      case 'GET /v1/notes': {
        const dealId = Number(url.searchParams.get('deal_id'));
        return sendJson(res, 200, { success: true, data: state.notes.filter((n) => n.deal_id === dealId) });
      }
      case 'POST /v1/persons': {
        const email = (body.email as { value: string }[])[0]?.value ?? '';
        const person = {
          id: nextId++,
          name: String(body.name),
          email,
          org_id: (body.org_id as number) ?? null,
        };
        state.persons.push(person);
        return created(person);
      }
      case 'POST /v1/organizations': {
        const org = { id: nextId++, name: String(body.name) };
        state.organizations.push(org);
        return created(org);
      }
      case 'POST /v1/deals': {
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
