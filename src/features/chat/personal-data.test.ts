import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { testConfig } from '../../../test/support/test-app.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { LINKED, PersonalDataScope } from '../../db/personal-data.ts';
import { chatPersonalData } from './personal-data.ts';

const engines = await testEngines();

describe.each(engines)('finding the chat sessions that mention an address on %s', (engine) => {
  let database: TestDatabase;
  afterEach(() => database?.dispose());

  it('finds the address as written and as a pasted URL carries it, never a longer one', async () => {
    database = await createTestDatabase(engine);
    const db = database.handle.db;
    await migrateToLatest(db);
    const said = {
      written: 'You can reach me at Ana@Example.co',
      url: 'I filled https://agency.example/contact?email=ana%40example.co&ref=x but nothing came',
      urlUpper: 'see HTTPS://AGENCY.EXAMPLE/?E=ANA%40EXAMPLE.CO',
      plusEncoded: 'my link: /prefill?to=ana%2Bnews%40example.co',
      someoneElse: 'https://agency.example/contact?email=juana%40example.co',
      longerDomain: 'https://agency.example/contact?email=ana%40example.com',
      nobody: 'What does a landing page cost?',
    };
    let n = 0;
    for (const [session, content] of Object.entries(said)) {
      await db
        .insertInto('chat_messages')
        .values({ id: `m${++n}`, session_id: session, role: 'user', content, metadata: null, created_at: n })
        .execute();
    }
    const found = async (address: string) => {
      const scope = new PersonalDataScope(address);
      await chatPersonalData(testConfig()).find(db, scope);
      return [...scope.ids(LINKED.chatSession)].sort();
    };
    expect(await found('ana@example.co')).toEqual(['url', 'urlUpper', 'written']);
    expect(await found('ana+news@example.co')).toEqual(['plusEncoded']);
    expect(await found('juana@example.co')).toEqual(['someoneElse']);
  });
});
