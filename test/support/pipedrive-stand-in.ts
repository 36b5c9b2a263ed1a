import type { ServerResponse } from 'node:http';
import { type RecordedRequest, type StandIn, sendJson, startStandIn } from './stand-in.ts';

/**
 * A local stand-in for Pipedrive's API (tests only): persons, organizations and deals on API v2
 * (`/api/v2/…`; their retired v1 endpoints answer 410), notes on v1, held in memory; search by exact
 * e-mail / name and by title substring, a person's deals (`GET /api/v2/deals?person_id=`, one page),
 * a deal's or a person's notes listed; persons, deals and notes deleted (`DELETE …/{id}`, 404 once
 * gone, `{success, data: {id}}` as Pipedrive answers); the token checked in the `x-api-token`
 * header only. `fail` makes chosen calls answer 500 (e.g. `() => true` for an outage, or only
 * `POST /v1/notes`), or the status and error text it returns (a CRM quoting the request back).
 */
export interface PipedriveStandIn {
  url: string;
  token: string;
  standIn: StandIn;
  persons: { id: number; name: string; email: string; org_id: number | null }[];
  organizations: { id: number; name: string }[];
  deals: { id: number; title: string; person_id: number; org_id: number | null }[];
  notes: { id: number; content: string; deal_id: number; person_id?: number | null }[];
  fail: (req: RecordedRequest) => boolean | { status: number; error: string };
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
    const failure = state.fail(req);
    if (failure) {
      const { status, error } = failure === true ? { status: 500, error: 'internal error' } : failure;
      return sendJson(res, status, { success: false, error });
    }
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
    const deletion = /^(?:\/api\/v2\/(persons|deals)|\/v1\/(notes))\/(\d+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && deletion) {
      const list: { id: number }[] =
        deletion[1] === 'persons' ? state.persons : deletion[1] === 'deals' ? state.deals : state.notes;
      const id = Number(deletion[3]);
      const at = list.findIndex((item) => item.id === id);
      if (at < 0) return sendJson(res, 404, { success: false, error: 'Item not found' });
      list.splice(at, 1);
      return sendJson(res, 200, { success: true, data: { id } });
    }
    switch (key) {
      case 'GET /api/v2/persons/search':
        return search(state.persons.filter((p) => p.email.toLowerCase() === term));
      case 'GET /api/v2/organizations/search':
        return search(state.organizations.filter((o) => o.name.toLowerCase() === term));
      case 'GET /api/v2/deals/search':
        return search(state.deals.filter((d) => d.title.toLowerCase().includes(term)));
      case 'GET /v1/notes': {
        const dealId = url.searchParams.get('deal_id');
        const personId = url.searchParams.get('person_id');
        const notes = state.notes.filter(
          (n) =>
            (dealId === null || n.deal_id === Number(dealId)) &&
            (personId === null || n.person_id === Number(personId)),
        );
        return sendJson(res, 200, {
          success: true,
          data: notes,
          additional_data: { pagination: { start: 0, more_items_in_collection: false } },
        });
      }
      case 'GET /api/v2/deals': {
        const personId = Number(url.searchParams.get('person_id'));
        return sendJson(res, 200, {
          success: true,
          data: state.deals.filter((d) => d.person_id === personId),
          additional_data: { next_cursor: null },
        });
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
        const note = {
          id: nextId++,
          content: String(body.content),
          deal_id: Number(body.deal_id),
          person_id: typeof body.person_id === 'number' ? body.person_id : null,
        };
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
