import type { Hono, Schema } from 'hono';
import type { HousekeepingTask } from '../db/housekeeping.ts';
import type { PersonalDataPart } from '../db/personal-data.ts';
import type { AppEnv } from '../http/env.ts';
import type { PathProperties } from '../http/paths.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { CrmRecordSource } from '../integrations/crm/sync.ts';
import type { QueueDefinition } from '../queue/worker.ts';

/**
 * What a feature shows the centre: each `features/<name>/module.ts` exports one, and
 * `features/index.ts` lists them. The composition root (`dependencies.ts`), `app.ts` and `server.ts`
 * loop over that list and name no feature.
 */
export interface FeatureModule {
  /** The feature's folder name (in logs). */
  readonly name: string;
  /** What the edge must know about some of its paths before any route runs. */
  readonly paths?: readonly PathProperties[];
  /**
   * Builds the feature once, at start-up, from the shared infrastructure: here it makes its own
   * narrow ports (a store, a quota, a recorder) and hands them to its routes and queue handlers.
   */
  build(infrastructure: Infrastructure): FeatureParts | Promise<FeatureParts>;
}

/** A built feature: what the centre mounts, registers and runs. */
export interface FeatureParts {
  /** Its sub-app, mounted at `/` (routes carry their full paths; an OpenAPIHono adds to `/openapi.json`). */
  routes?: Hono<AppEnv, Schema, string>;
  /** The durable queues it owns, with their handlers (registered with the shared worker). */
  queues?: readonly QueueDefinition<never>[];
  /** Its records synced to the CRM through the shared retry queue (`integrations/crm/sync.ts`). */
  crmRecords?: Readonly<Record<string, CrmRecordSource>>;
  /** Deletions of what has expired, run by every instance's housekeeping with the shared ones. */
  housekeeping?: readonly HousekeepingTask[];
  /**
   * What it holds about people: found by address, exported, erased in the erasure's transaction,
   * expired by its retention rules (`db/personal-data.ts`; the privacy feature runs them).
   */
  personalData?: readonly PersonalDataPart[];
  /** Writes out what it buffers; called at shutdown before the database closes (and by tests). */
  flush?(): Promise<void>;
}

/** A feature as the centre holds it once built. */
export interface Feature extends FeatureParts {
  readonly name: string;
  readonly paths: readonly PathProperties[];
}
