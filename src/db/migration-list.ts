/**
 * Every migration of db/migrations, under the name Kysely records for it (the file name without its
 * extension), imported statically rather than found by reading the folder at run time: the server's
 * bundle (scripts/build-server.ts) then carries them, and a start never loads them as separate
 * modules. A new migration file goes here too; migrate.test.ts holds this list to the folder.
 */
import type { Migration } from 'kysely/migration';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_ai_search.ts';
import * as m0003 from './migrations/0003_leads.ts';
import * as m0004 from './migrations/0004_chat.ts';
import * as m0006 from './migrations/0006_contact_analytics.ts';
import * as m0007 from './migrations/0007_prototypes.ts';
import * as m0008 from './migrations/0008_support.ts';
import * as m0009 from './migrations/0009_rate_limit_keys.ts';
import * as m0011 from './migrations/0011_classification_corrections.ts';
import * as m0012 from './migrations/0012_analytics_visits.ts';
import * as m0013 from './migrations/0013_contact_classification.ts';
import * as m0014 from './migrations/0014_personal_data.ts';
import * as m0015 from './migrations/0015_job_trace.ts';
import * as m0016 from './migrations/0016_analytics_read_tiers.ts';
import * as m0017 from './migrations/0017_analytics_inbox.ts';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_foundation': m0001,
  '0002_ai_search': m0002,
  '0003_leads': m0003,
  '0004_chat': m0004,
  '0006_contact_analytics': m0006,
  '0007_prototypes': m0007,
  '0008_support': m0008,
  '0009_rate_limit_keys': m0009,
  '0011_classification_corrections': m0011,
  '0012_analytics_visits': m0012,
  '0013_contact_classification': m0013,
  '0014_personal_data': m0014,
  '0015_job_trace': m0015,
  '0016_analytics_read_tiers': m0016,
  '0017_analytics_inbox': m0017,
};
