import { tracedFetch } from '../../tracing/outbound.ts';
import {
  type CrmClient,
  CrmError,
  type CrmIds,
  type CrmLeadInput,
  type CrmSyncOptions,
  SkippedCrm,
} from './crm.ts';

interface PipedriveEnvelope<T> {
  success?: boolean;
  data?: T;
  error?: string;
}

interface SearchData {
  items?: { item?: { id?: number; title?: string } }[];
}

/**
 * Which API version serves a path. Persons, organizations, deals and their searches are API v2
 * (`/api/v2/…`): their v1 endpoints were deprecated on 2026-01-01 and are out of support since
 * 2026-08-01. Notes have no v2 equivalent and stay on v1 (`/v1/notes`).
 */
type ApiVersion = 'v1' | 'v2';
const PREFIX: Record<ApiVersion, string> = { v1: '/v1', v2: '/api/v2' };

/**
 * Pipedrive's REST API with API-token authentication, the token in the `x-api-token` header (never in
 * the URL, where proxies and logs would keep it). Every call carries the caller's signal.
 */
export class PipedriveClient implements CrmClient {
  readonly enabled = true;
  readonly #token: string;
  readonly #baseUrl: string;

  constructor(options: { token: string; apiUrl: string }) {
    this.#token = options.token;
    this.#baseUrl = options.apiUrl.replace(/\/+$/, '');
  }

  async #call<T>(
    method: 'GET' | 'POST',
    version: ApiVersion,
    path: string,
    signal: AbortSignal,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<T> {
    const url = new URL(`${this.#baseUrl}${PREFIX[version]}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const endpoint = `${method} ${PREFIX[version]}${path}`;
    let res: Response;
    try {
      res = await tracedFetch(
        'pipedrive',
        { 'http.request.method': method, 'url.path': url.pathname },
        (trace) =>
          fetch(url, {
            method,
            headers: {
              accept: 'application/json',
              'x-api-token': this.#token,
              ...(options.body ? { 'content-type': 'application/json' } : {}),
              ...trace,
            },
            body: options.body ? JSON.stringify(options.body) : undefined,
            signal,
          }),
      );
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new CrmError(`Pipedrive ${endpoint} ${reason}`);
    }
    const text = await res.text();
    let envelope: PipedriveEnvelope<T> | null = null;
    try {
      envelope = JSON.parse(text) as PipedriveEnvelope<T>;
    } catch {
      envelope = null;
    }
    if (!res.ok || !envelope || envelope.success === false) {
      const permanent = [400, 401, 403, 404, 410, 422].includes(res.status);
      const detail = envelope?.error ? `: ${String(envelope.error).slice(0, 200)}` : '';
      throw new CrmError(`Pipedrive ${endpoint} answered ${res.status}${detail}`, permanent);
    }
    return envelope.data as T;
  }

  async #searchId(path: string, term: string, field: string, exact: boolean, signal: AbortSignal) {
    const data = await this.#call<SearchData | null>('GET', 'v2', path, signal, {
      query: { term, fields: field, exact_match: exact ? 'true' : 'false', limit: '1' },
    });
    const id = data?.items?.[0]?.item?.id;
    return typeof id === 'number' ? id : null;
  }

  /**
   * The deal whose title carries `reference`. Pipedrive's search is full-text (a partial match may
   * rank another deal first), so the candidates' titles are checked, not the first one trusted.
   */
  async #dealCarrying(reference: string, signal: AbortSignal): Promise<number | null> {
    const data = await this.#call<SearchData | null>('GET', 'v2', '/deals/search', signal, {
      query: { term: reference, fields: 'title', exact_match: 'false', limit: '10' },
    });
    const match = data?.items?.find(
      (entry) => typeof entry.item?.title === 'string' && entry.item.title.includes(reference),
    );
    return typeof match?.item?.id === 'number' ? match.item.id : null;
  }

  /** A note on the deal that carries `reference`: one an earlier attempt created before its answer was lost. */
  async #noteCarrying(dealId: number, reference: string, signal: AbortSignal): Promise<number | null> {
    const notes = await this.#call<{ id?: number; content?: string }[] | null>(
      'GET',
      'v1',
      '/notes',
      signal,
      {
        query: { deal_id: String(dealId), limit: '100' },
      },
    );
    const match = (notes ?? []).find(
      (note) => typeof note.content === 'string' && note.content.includes(reference),
    );
    return typeof match?.id === 'number' ? match.id : null;
  }

  async #create(version: ApiVersion, path: string, body: unknown, signal: AbortSignal): Promise<number> {
    const data = await this.#call<{ id?: number } | null>('POST', version, path, signal, { body });
    if (typeof data?.id !== 'number') {
      throw new CrmError(`Pipedrive POST ${PREFIX[version]}${path} returned no id`);
    }
    return data.id;
  }

  async syncLead(input: CrmLeadInput, options: CrmSyncOptions): Promise<CrmIds> {
    const { signal } = options;
    const ids: CrmIds = { ...options.known };

    if (input.company && ids.orgId === null) {
      ids.orgId =
        (await this.#searchId('/organizations/search', input.company, 'name', true, signal)) ??
        (await this.#create('v2', '/organizations', { name: input.company }, signal));
      await options.onProgress({ orgId: ids.orgId });
    }
    if (ids.personId === null) {
      ids.personId =
        (await this.#searchId('/persons/search', input.email, 'email', true, signal)) ??
        (await this.#create(
          'v2',
          '/persons',
          {
            name: input.name,
            emails: [{ value: input.email, primary: true, label: 'work' }],
            ...(input.phone ? { phones: [{ value: input.phone, primary: true, label: 'work' }] } : {}),
            ...(ids.orgId !== null ? { org_id: ids.orgId } : {}),
          },
          signal,
        ));
      await options.onProgress({ personId: ids.personId });
    }
    if (ids.dealId === null) {
      const existing = options.searchExistingDeal ? await this.#dealCarrying(input.reference, signal) : null;
      ids.dealId =
        existing ??
        (await this.#create(
          'v2',
          '/deals',
          {
            title: input.title,
            person_id: ids.personId,
            ...(ids.orgId !== null ? { org_id: ids.orgId } : {}),
          },
          signal,
        ));
      await options.onProgress({ dealId: ids.dealId });
    }
    if (ids.noteId === null) {
      // On a retry the note may exist already (created, its answer lost): notes are not idempotent.
      const existing = options.searchExistingDeal
        ? await this.#noteCarrying(ids.dealId, input.reference, signal)
        : null;
      ids.noteId =
        existing ??
        (await this.#create(
          'v1',
          '/notes',
          { content: input.noteHtml, deal_id: ids.dealId, person_id: ids.personId },
          signal,
        ));
      await options.onProgress({ noteId: ids.noteId });
    }
    return ids;
  }
}

export function createCrmClient(config: { token: string | undefined; apiUrl: string }): CrmClient {
  return config.token
    ? new PipedriveClient({ token: config.token, apiUrl: config.apiUrl })
    : new SkippedCrm();
}
