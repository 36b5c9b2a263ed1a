import type { Transaction } from 'kysely';
import type { DbOrTx } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Personal data, held in many features' tables, found, exported, erased and expired through one
 * contract: each feature (and each shared table's owner) contributes a `PersonalDataPart` through
 * its module, the composition root registers them here, and the privacy feature orchestrates them.
 * Neither side names the other: a new feature that stores personal data adds its own part.
 *
 * What is held about a person is a `PersonalDataScope`: the address (or none, for a retention sweep)
 * and the ids of the records found so far, by kind. A part adds what it holds (its leads by address,
 * the attempts of those leads, the e-mails keyed by any record id…); `find` runs over every part
 * until no part adds anything, so links across features are followed whatever the order.
 */
export class PersonalDataScope {
  /** The trimmed, lower-cased address; null when the scope is what a retention rule found expired. */
  readonly email: string | null;
  readonly #ids = new Map<string, Set<string>>();
  readonly #keying = new Set<string>();

  constructor(email: string | null) {
    this.email = email === null ? null : normalizeAddress(email);
  }

  /**
   * Adds ids of `kind`. `keysOthers`: these are ids of records that e-mails and queued jobs are keyed
   * by or carry (a lead's id in `<leadId>:confirmation`), so those are found through them; not for ids
   * a visitor chose (a chat session id may be `s1`).
   */
  add(kind: string, ids: Iterable<string>, options: { keysOthers?: boolean } = {}): void {
    if (options.keysOthers) this.#keying.add(kind);
    let set = this.#ids.get(kind);
    for (const id of ids) {
      if (!set) {
        set = new Set();
        this.#ids.set(kind, set);
      }
      set.add(id);
    }
  }

  ids(kind: string): string[] {
    return [...(this.#ids.get(kind) ?? [])];
  }

  /** The ids of every kind added with `keysOthers`. */
  keyingIds(): string[] {
    return [...this.#keying].flatMap((kind) => this.ids(kind));
  }

  /** How many ids are held in all: `find` runs again while it grows. */
  get size(): number {
    let n = 0;
    for (const set of this.#ids.values()) n += set.size;
    return n;
  }
}

/**
 * The kinds of record that link one owner's data to another's: the part that finds them adds them,
 * the others read them (a lead's prototypes, its chat session; e-mails and jobs keyed by any record
 * id). A kind only one part uses is its own affair.
 */
export const LINKED = {
  lead: 'lead',
  chatSession: 'chat_session',
  mail: 'mail',
  job: 'job',
} as const;

export function normalizeAddress(email: string): string {
  return email.trim().toLowerCase();
}

/** The CRM objects created for a record (the CRM client deletes them with the person). */
export interface KnownCrmIds {
  personId: number | null;
  dealId: number | null;
  noteId: number | null;
}

/** Counts of what an erasure deleted, by kind (`leads`, `ticketFiles`…). */
export type ErasedCounts = Record<string, number>;

/** One kind of personal data and how long it is kept. */
export interface RetentionRule {
  /** What expires, for the admin's Privacy view and the audit log (e.g. "spam and vendor leads"). */
  readonly kind: string;
  /** The variable that sets the period. */
  readonly variable: string;
  /** The period in days; 0 keeps it until erased. */
  readonly days: number;
  /** Adds to `scope` at most `limit` records created (or finished) before `before`. */
  expired(db: DbOrTx, before: number, scope: PersonalDataScope, limit: number): Promise<void>;
}

/** A column that holds blob ids (`db/blob-store.ts`): a blob no such column names is an orphan. */
export interface BlobReference {
  readonly table: keyof Database & string;
  readonly column: string;
}

export interface PersonalDataPart {
  /** The owner, in logs (a feature's or a shared table's name). */
  readonly name: string;
  /** Adds to `scope` the ids of what this part holds about it (idempotent: it is called repeatedly). */
  find(db: DbOrTx, scope: PersonalDataScope): Promise<void>;
  /** What it holds for the scope, as sections of the export (JSON-ready values). */
  export(db: DbOrTx, scope: PersonalDataScope): Promise<Record<string, unknown[]>>;
  /** Deletes what it holds for the scope, in the erasure's transaction; how many of each kind. */
  erase(tx: Transaction<Database>, scope: PersonalDataScope): Promise<ErasedCounts>;
  /** CRM objects created for the records in scope (deleted from the CRM when the erasure asks). */
  crmIds?(db: DbOrTx, scope: PersonalDataScope): Promise<KnownCrmIds[]>;
  /** How long each kind it holds is kept (enforced by the housekeeping). */
  readonly retention?: readonly RetentionRule[];
  /** Its columns that hold blob ids. */
  readonly blobReferences?: readonly BlobReference[];
}

/** The parts of every feature, registered by the composition root once the features are built. */
export class PersonalDataRegistry {
  readonly #parts: PersonalDataPart[] = [];

  register(part: PersonalDataPart): void {
    this.#parts.push(part);
  }

  get parts(): readonly PersonalDataPart[] {
    return this.#parts;
  }
}

/** Runs every part's `find` until none adds an id (links are followed in any order). */
export async function findPersonalData(
  db: DbOrTx,
  parts: readonly PersonalDataPart[],
  scope: PersonalDataScope,
): Promise<PersonalDataScope> {
  for (let round = 0; round < 8; round++) {
    const before = scope.size;
    for (const part of parts) await part.find(db, scope);
    if (scope.size === before) break;
  }
  return scope;
}

/** Splits ids into lists short enough for one `in (…)` (both engines take far more; this keeps plans small). */
export function inChunks<T>(items: readonly T[], size = 200): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
