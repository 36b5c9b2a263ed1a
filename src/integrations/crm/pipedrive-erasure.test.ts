import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipedriveStandIn, startPipedriveStandIn } from '../../../test/support/pipedrive-stand-in.ts';
import { CrmError } from './crm.ts';
import { PipedriveClient } from './pipedrive.ts';

/** Deleting a person from Pipedrive through the real API shape (against the stand-in). */
describe('PipedriveClient.erasePerson', () => {
  let pipedrive: PipedriveStandIn;
  let client: PipedriveClient;
  const signal = () => AbortSignal.timeout(5000);

  beforeAll(async () => {
    pipedrive = await startPipedriveStandIn();
    client = new PipedriveClient({ token: pipedrive.token, apiUrl: pipedrive.url });
  });
  afterAll(() => pipedrive.close());

  async function sync(reference: string, email: string, company: string) {
    return client.syncLead(
      {
        reference,
        name: 'Ana',
        email,
        phone: null,
        company,
        title: `Deal ${reference}`,
        noteHtml: `<p>${reference}</p>`,
      },
      {
        known: { personId: null, orgId: null, dealId: null, noteId: null },
        signal: signal(),
        searchExistingDeal: false,
        onProgress: async () => {},
      },
    );
  }

  it('deletes every person with the address, their deals and the notes on them, and leaves others', async () => {
    const first = await sync('lead-1', 'ana@example.com', 'Acme');
    const second = await sync('lead-2', 'ana@example.com', 'Acme');
    expect(second.personId).toBe(first.personId);
    // A person the search would not find (the address was changed in the CRM), known by its id.
    pipedrive.persons.push({ id: 9001, name: 'Ana (old)', email: 'ana.old@example.com', org_id: null });
    pipedrive.deals.push({ id: 9002, title: 'Old deal', person_id: 9001, org_id: null });
    pipedrive.notes.push({ id: 9003, content: 'about Ana', deal_id: 0, person_id: 9001 });
    const other = await sync('lead-3', 'bea@example.com', 'Acme');

    const result = await client.erasePerson(
      { email: 'ana@example.com', known: { personIds: [9001], dealIds: [], noteIds: [] } },
      { signal: signal() },
    );
    expect(result).toEqual({ persons: 2, deals: 3, notes: 3 });
    expect(pipedrive.persons.map((p) => p.id)).toEqual([other.personId]);
    expect(pipedrive.deals.map((d) => d.id)).toEqual([other.dealId]);
    expect(pipedrive.notes.map((n) => n.id)).toEqual([other.noteId]);
    // The organization is a company, shared, not the person: it stays.
    expect(pipedrive.organizations.map((o) => o.name)).toEqual(['Acme']);

    // Again (a retry after a lost answer): what is gone is skipped, nothing fails.
    const again = await client.erasePerson(
      {
        email: 'ana@example.com',
        known: { personIds: [first.personId as number, 9001], dealIds: [9002], noteIds: [9003] },
      },
      { signal: signal() },
    );
    expect(again).toEqual({ persons: 0, deals: 0, notes: 0 });
  });

  it('fails with the CRM error: permanent for a refused token, retryable for an outage', async () => {
    const refused = new PipedriveClient({ token: 'wrong', apiUrl: pipedrive.url });
    const denied = await refused
      .erasePerson(
        { email: 'x@example.com', known: { personIds: [], dealIds: [], noteIds: [] } },
        { signal: signal() },
      )
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(CrmError);
    expect((denied as CrmError).permanent).toBe(true);

    pipedrive.fail = () => true;
    const down = await client
      .erasePerson(
        { email: 'x@example.com', known: { personIds: [], dealIds: [], noteIds: [] } },
        { signal: signal() },
      )
      .catch((e: unknown) => e);
    pipedrive.fail = () => false;
    expect((down as CrmError).permanent).toBe(false);
    expect((down as CrmError).status).toBe(500);
  });

  it('keeps no word of what Pipedrive answers in its errors (it may quote the person back)', async () => {
    pipedrive.fail = (req) => ({
      status: 400,
      error: `Invalid request ${req.method} ${req.url}: ${req.body}`,
    });
    const failures = [
      await sync('lead-quoted', 'quoted.person@example.com', 'Quoted Co').catch((e: unknown) => e),
      await client
        .erasePerson(
          { email: 'quoted.person@example.com', known: { personIds: [], dealIds: [], noteIds: [] } },
          { signal: signal() },
        )
        .catch((e: unknown) => e),
    ];
    pipedrive.fail = () => false;
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(CrmError);
      const message = (failure as CrmError).message;
      expect(message).toMatch(/^Pipedrive (GET|POST) \/api\/v[12]\/\S+ answered 400$/);
      for (const quoted of ['quoted', 'Quoted', 'Invalid request']) expect(message).not.toContain(quoted);
    }
  });
});
