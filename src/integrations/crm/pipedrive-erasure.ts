import { type CrmErasureInput, type CrmErasureResult, CrmError } from './crm.ts';
import type { ApiVersion, PipedriveApi } from './pipedrive-api.ts';

/** Pages read per list at most (a person with more than 5 000 deals is not a website's prospect). */
const MAX_PAGES = 10;
const PAGE_SIZE = 500;

async function personIdsByEmail(api: PipedriveApi, email: string, signal: AbortSignal): Promise<number[]> {
  const data = await api.call<{ items?: { item?: { id?: number } }[] } | null>(
    'GET',
    'v2',
    '/persons/search',
    signal,
    { query: { term: email, fields: 'email', exact_match: 'true', limit: '100' } },
  );
  return (data?.items ?? [])
    .map((entry) => entry.item?.id)
    .filter((id): id is number => typeof id === 'number');
}

/** A person's deals (API v2 lists them by `person_id`, cursor-paged; deleted deals are left out). */
async function dealIdsOf(api: PipedriveApi, personId: number, signal: AbortSignal): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const envelope = await api.request<{ id?: number }[] | null>('GET', 'v2', '/deals', signal, {
      query: { person_id: String(personId), limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) },
    });
    for (const deal of envelope.data ?? []) if (typeof deal.id === 'number') ids.push(deal.id);
    cursor = envelope.additional_data?.next_cursor;
    if (!cursor) break;
  }
  return ids;
}

/** Notes on a deal or a person (API v1, offset-paged). */
async function noteIdsOn(
  api: PipedriveApi,
  filter: { deal_id: string } | { person_id: string },
  signal: AbortSignal,
): Promise<number[]> {
  const ids: number[] = [];
  let start = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const envelope = await api.request<{ id?: number }[] | null>('GET', 'v1', '/notes', signal, {
      query: { ...filter, start: String(start), limit: String(PAGE_SIZE) },
    });
    for (const note of envelope.data ?? []) if (typeof note.id === 'number') ids.push(note.id);
    const pagination = envelope.additional_data?.pagination;
    if (!pagination?.more_items_in_collection || pagination.next_start === undefined) break;
    start = pagination.next_start;
  }
  return ids;
}

const isGone = (error: unknown) =>
  error instanceof CrmError && (error.status === 404 || error.status === 410);

/** What `list` finds, or nothing when the object it belongs to is already gone (a retry's second run). */
async function unlessGone(list: Promise<number[]>): Promise<number[]> {
  try {
    return await list;
  } catch (error) {
    if (isGone(error)) return [];
    throw error;
  }
}

/** DELETE one object; false when it was already gone (404, 410), so a retry can repeat the whole run. */
async function remove(api: PipedriveApi, version: ApiVersion, path: string, signal: AbortSignal) {
  try {
    await api.call('DELETE', version, path, signal);
    return true;
  } catch (error) {
    if (isGone(error)) return false;
    throw error;
  }
}

/**
 * Deletes a person from Pipedrive: every person with the address (exact search on the e-mail field)
 * and those whose ids we kept, the deals of each (and the ones we kept), and the notes on those deals
 * and persons (deleting a deal or a person leaves its notes behind). Notes first, then deals, then
 * persons, so a failed run leaves the person to be found again by the next. Pipedrive keeps deleted
 * objects 30 days before it purges them (its documented behaviour); organizations are left alone (a
 * company is shared with others and is not the person).
 */
export async function erasePipedrivePerson(
  api: PipedriveApi,
  input: CrmErasureInput,
  signal: AbortSignal,
): Promise<CrmErasureResult> {
  const persons = new Set([...input.known.personIds, ...(await personIdsByEmail(api, input.email, signal))]);
  const deals = new Set(input.known.dealIds);
  for (const personId of persons)
    for (const id of await unlessGone(dealIdsOf(api, personId, signal))) deals.add(id);
  const notes = new Set(input.known.noteIds);
  for (const dealId of deals) {
    for (const id of await unlessGone(noteIdsOn(api, { deal_id: String(dealId) }, signal))) notes.add(id);
  }
  for (const personId of persons) {
    for (const id of await unlessGone(noteIdsOn(api, { person_id: String(personId) }, signal))) notes.add(id);
  }
  const result: CrmErasureResult = { persons: 0, deals: 0, notes: 0 };
  for (const id of notes) if (await remove(api, 'v1', `/notes/${id}`, signal)) result.notes++;
  for (const id of deals) if (await remove(api, 'v2', `/deals/${id}`, signal)) result.deals++;
  for (const id of persons) if (await remove(api, 'v2', `/persons/${id}`, signal)) result.persons++;
  return result;
}
