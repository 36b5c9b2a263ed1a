import { tracedFetch } from '../../tracing/outbound.ts';
import { CrmError } from './crm.ts';

/** Pipedrive's answer envelope: `data`, and for lists `additional_data` with the next page's cursor or start. */
export interface PipedriveEnvelope<T> {
  success?: boolean;
  data?: T;
  error?: string;
  additional_data?: {
    next_cursor?: string | null;
    pagination?: { more_items_in_collection?: boolean; next_start?: number };
  };
}

/**
 * Which API version serves a path. Persons, organizations, deals and their searches are API v2
 * (`/api/v2/…`): their v1 endpoints were deprecated on 2026-01-01 and are out of support since
 * 2026-08-01. Notes have no v2 equivalent and stay on v1 (`/v1/notes`).
 */
export type ApiVersion = 'v1' | 'v2';
export const PREFIX: Record<ApiVersion, string> = { v1: '/v1', v2: '/api/v2' };

export interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * Pipedrive's REST API with API-token authentication, the token in the `x-api-token` header (never in
 * the URL, where proxies and logs would keep it). Every call carries the caller's signal; a failure
 * is a CrmError (permanent when retrying cannot help) with the status Pipedrive answered.
 */
export class PipedriveApi {
  readonly #token: string;
  readonly #baseUrl: string;

  constructor(options: { token: string; apiUrl: string }) {
    this.#token = options.token;
    this.#baseUrl = options.apiUrl.replace(/\/+$/, '');
  }

  async request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    version: ApiVersion,
    path: string,
    signal: AbortSignal,
    options: CallOptions = {},
  ): Promise<PipedriveEnvelope<T>> {
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
      // Pipedrive's own error text is not kept: it may quote the request (a person's name, address or
      // phone), and this message is logged, stored with the record and in the privacy audit log.
      throw new CrmError(`Pipedrive ${endpoint} answered ${res.status}`, permanent, res.status);
    }
    return envelope;
  }

  async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    version: ApiVersion,
    path: string,
    signal: AbortSignal,
    options: CallOptions = {},
  ): Promise<T> {
    return (await this.request<T>(method, version, path, signal, options)).data as T;
  }
}
