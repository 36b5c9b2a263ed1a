import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { blobsTable } from '../src/db/blob-store.ts';
import { cacheEntriesTable } from '../src/db/cache-store.ts';
import type { Engine } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { countersTable, rateLimitsTable, serviceSettingsTable } from '../src/db/rate-limiter.ts';
import type { Database } from '../src/db/schema.ts';
import type { RowOf, SqlType, TableSpec } from '../src/db/table-spec.ts';
import {
  analyticsDailyTable,
  analyticsEventsTable,
  analyticsInboxTable,
  analyticsMonthlyTable,
  analyticsSaltsTable,
  analyticsVisitDailyTable,
  analyticsVisitMonthlyTable,
  analyticsVisitorsTable,
  analyticsVisitsTable,
} from '../src/features/analytics/tables.ts';
import { chatMessagesTable } from '../src/features/chat/history-store.ts';
import { contactSubmissionsTable } from '../src/features/contact/store.ts';
import {
  leadSettingsTable,
  prototypeQuotaCountersTable,
  prototypeQuotaHoldsTable,
} from '../src/features/leads/quota.ts';
import { leadsTable } from '../src/features/leads/store.ts';
import { privacyAuditTable, privacyCrmErasuresTable } from '../src/features/privacy/store.ts';
import { prototypeAttemptsTable, prototypeEventsTable } from '../src/features/prototypes/store.ts';
import {
  supportAttachmentsTable,
  supportMessagesTable,
  supportTicketsTable,
} from '../src/features/support/store.ts';
import { classificationCorrectionsTable } from '../src/integrations/llm/corrections.ts';
import { mailOutboxTable } from '../src/integrations/mail/outbox.ts';
import { jobsTable } from '../src/queue/job-queue.ts';
import { searchChunksTable, searchDocumentsTable } from '../src/search/sql-search-index.ts';
import { createTestDatabase, type TestDatabase, testEngines } from './support/database.ts';

/**
 * Every table, by name, with its one declaration (next to the code that owns it). `satisfies` makes
 * the list exactly the tables of `Database`: a table added to the types without its place here, or
 * the other way round, fails the typecheck.
 */
const TABLES = {
  jobs: jobsTable,
  cache_entries: cacheEntriesTable,
  rate_limits: rateLimitsTable,
  counters: countersTable,
  search_documents: searchDocumentsTable,
  search_chunks: searchChunksTable,
  leads: leadsTable,
  prototype_quota_counters: prototypeQuotaCountersTable,
  prototype_quota_holds: prototypeQuotaHoldsTable,
  lead_settings: leadSettingsTable,
  mail_outbox: mailOutboxTable,
  chat_messages: chatMessagesTable,
  contact_submissions: contactSubmissionsTable,
  analytics_events: analyticsEventsTable,
  analytics_daily: analyticsDailyTable,
  analytics_visitors: analyticsVisitorsTable,
  analytics_salts: analyticsSaltsTable,
  analytics_visits: analyticsVisitsTable,
  analytics_visit_daily: analyticsVisitDailyTable,
  analytics_monthly: analyticsMonthlyTable,
  analytics_visit_monthly: analyticsVisitMonthlyTable,
  analytics_inbox: analyticsInboxTable,
  prototype_attempts: prototypeAttemptsTable,
  prototype_events: prototypeEventsTable,
  blobs: blobsTable,
  support_messages: supportMessagesTable,
  support_tickets: supportTicketsTable,
  support_attachments: supportAttachmentsTable,
  service_settings: serviceSettingsTable,
  classification_corrections: classificationCorrectionsTable,
  privacy_audit: privacyAuditTable,
  privacy_crm_erasures: privacyCrmErasuresTable,
} satisfies Record<keyof Database, TableSpec>;

/** Exactly the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The tables whose Kysely type is not their declaration's row type (a hand-written `Database` entry). */
type TablesTypedApart = {
  [Name in keyof Database]: Same<Database[Name], RowOf<(typeof TABLES)[Name]>> extends true ? never : Name;
}[keyof Database];

/** How each engine reports the declared column types. */
const REPORTED_TYPES: Record<Engine, Record<SqlType, string>> = {
  sqlite: { text: 'text', integer: 'integer', bigint: 'bigint', real: 'real', bytes: 'blob' },
  postgres: {
    text: 'text',
    integer: 'integer',
    bigint: 'bigint',
    real: 'double precision',
    bytes: 'bytea',
  },
};

/**
 * The full-text structures, each engine's own and reached through SQL only (search/sql-search-index.ts):
 * SQLite's FTS5 table with its shadow tables, PostgreSQL's tsvector column.
 */
const ENGINE_ONLY: Record<Engine, { tables: RegExp | null; columns: string[] }> = {
  sqlite: { tables: /^search_fts(_\w+)?$/, columns: [] },
  postgres: { tables: null, columns: ['search_chunks.tsv'] },
};

/** `type` or `type null` per column per table: what both sides are compared as. */
type Shape = Record<string, Record<string, string>>;

function declaredShape(engine: Engine): Shape {
  const shape: Shape = {};
  for (const [name, columns] of Object.entries(TABLES)) {
    shape[name] = {};
    for (const [column, spec] of Object.entries(columns as TableSpec)) {
      shape[name][column] = `${REPORTED_TYPES[engine][spec.sql]}${spec.nullable ? ' null' : ''}`;
    }
  }
  return shape;
}

// biome-ignore lint/suspicious/noExplicitAny: the catalogue is read whatever the table types
async function migratedShape(engine: Engine, db: Kysely<any>): Promise<Shape> {
  const columns =
    engine === 'sqlite'
      ? // SQLite lets a primary key that is not an INTEGER hold NULL (a legacy quirk); nothing writes
        // one, so a key column counts as not null.
        await sql<{ table: string; column: string; type: string; nullable: number }>`
          select m.name as "table", c.name as "column", lower(c.type) as type,
                 (c."notnull" = 0 and c.pk = 0) as nullable
          from sqlite_master m, pragma_table_info(m.name) c
          where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'`.execute(db)
      : await sql<{ table: string; column: string; type: string; nullable: boolean }>`
          select table_name as "table", column_name as "column", data_type as type,
                 is_nullable = 'YES' as nullable
          from information_schema.columns
          where table_schema = current_schema()`.execute(db);
  const only = ENGINE_ONLY[engine];
  const shape: Shape = {};
  for (const { table, column, type, nullable } of columns.rows) {
    if (table.startsWith('kysely_migration') || only.tables?.test(table)) continue;
    if (only.columns.includes(`${table}.${column}`)) continue;
    shape[table] ??= {};
    shape[table][column] = `${type}${nullable ? ' null' : ''}`;
  }
  return shape;
}

const engines = await testEngines();

describe('each table is declared once', () => {
  it('the Kysely types are the declarations', () => {
    // A table whose `Database` entry is anything but its declaration's row type is named here.
    expectTypeOf<TablesTypedApart>().toBeNever();
  });

  const databases: TestDatabase[] = [];
  afterAll(() => Promise.all(databases.map((d) => d.dispose())));

  for (const engine of engines) {
    it(`the migrations make exactly the declared tables and columns on ${engine}`, async () => {
      const database = await createTestDatabase(engine);
      databases.push(database);
      await migrateToLatest(database.handle.db);
      expect(await migratedShape(engine, database.handle.db)).toEqual(declaredShape(engine));
    });
  }
});
