import {
  type CrmClient,
  type CrmErasureInput,
  type CrmErasureResult,
  CrmError,
  type CrmIds,
  type CrmLeadInput,
  type CrmSyncOptions,
  SkippedCrm,
} from './crm.ts';
import { type ApiVersion, type CallOptions, PipedriveApi, PREFIX } from './pipedrive-api.ts';
import { erasePipedrivePerson } from './pipedrive-erasure.ts';

interface SearchData {
  items?: { item?: { id?: number; title?: string } }[];
}

/**
 * The CRM in Pipedrive (over `PipedriveApi`): a lead synced as person, organization, deal and note;
 * a person erased with their deals and notes (`pipedrive-erasure.ts`).
 */
export class PipedriveClient implements CrmClient {
  readonly enabled = true;
  readonly #api: PipedriveApi;

  constructor(options: { token: string; apiUrl: string }) {
    this.#api = new PipedriveApi(options);
  }

  #call<T>(
    method: 'GET' | 'POST',
    version: ApiVersion,
    path: string,
    signal: AbortSignal,
    options?: CallOptions,
  ) {
    return this.#api.call<T>(method, version, path, signal, options);
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

  erasePerson(input: CrmErasureInput, options: { signal: AbortSignal }): Promise<CrmErasureResult> {
    return erasePipedrivePerson(this.#api, input, options.signal);
  }
}

export function createCrmClient(config: { token: string | undefined; apiUrl: string }): CrmClient {
  return config.token
    ? new PipedriveClient({ token: config.token, apiUrl: config.apiUrl })
    : new SkippedCrm();
}
