import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { isDatabaseUnavailable, isValueRefused } from '../../db/unavailable.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { dropInboxRow, foldInbox, inboxSize, newestInboxId, oldestInboxIds } from './store.ts';

export interface FoldResult {
  /** Inbox rows folded (or dropped as no event) by this call. */
  folded: number;
  /** What stopped it before the inbox was folded up to where it began (null: nothing). */
  error: unknown;
}

interface Folding {
  running: Promise<FoldResult> | null;
  queued: Promise<FoldResult> | null;
  /** The last fold failed: the next failure is not logged again, a success says so. */
  failing: boolean;
  /** While folds fail: the inbox's rows (all instances') when last counted, and failures since. */
  backlog: { events: number; failuresSince: number } | null;
}
const foldingOf = new WeakMap<Db, Folding>();

/**
 * While folds of this database fail (for any reason but the database being away, when nothing can
 * be appended either): the events waiting in the inbox, counted at the first failure and then
 * every inboxCountEveryFailures-th (a failing fold is tried again every second). Null while folds
 * succeed. The recorder refuses events past ANALYTICS_INBOX_MAX_EVENTS.
 */
export function backlogWhileFailing(db: Db): number | null {
  const state = foldingOf.get(db);
  return state?.failing && state.backlog ? state.backlog.events : null;
}

/**
 * Folds the inbox (every instance's rows, store.ts foldInbox) up to its newest row when called:
 * what the recorder does after its commits and every read of the analytics does first (see
 * foldBeforeRead). Never throws; a failure is logged once per run of failures and the rows stay for
 * the next fold. A call while a fold of the same database runs waits for it and runs one more (at
 * most one waits), so it covers every row committed before it was made.
 */
export function foldPending(db: Db, logger: Logger): Promise<FoldResult> {
  let state = foldingOf.get(db);
  if (state === undefined) {
    state = { running: null, queued: null, failing: false, backlog: null };
    foldingOf.set(db, state);
  }
  const folding = state;
  if (folding.queued) return folding.queued;
  if (folding.running) {
    folding.queued = folding.running.then(() => {
      folding.queued = null;
      return foldPending(db, logger);
    });
    return folding.queued;
  }
  folding.running = foldAll(db, logger, folding).finally(() => {
    folding.running = null;
  });
  return folding.running;
}

/**
 * The fold a read of the analytics waits for, so that its answer holds every event acknowledged
 * before it was asked. The database away: throws (the read answers 503 rather than leave events
 * out). A fold stopped by anything else is logged (error) and the read goes on without those rows.
 */
export async function foldBeforeRead(db: Db, logger: Logger): Promise<void> {
  const { error } = await foldPending(db, logger);
  if (error !== null && isDatabaseUnavailable(error)) throw error;
}

async function foldAll(db: Db, logger: Logger, state: Folding): Promise<FoldResult> {
  let folded = 0;
  try {
    const upTo = await newestInboxId(db);
    while (upTo !== null) {
      let outcome: Awaited<ReturnType<typeof foldInbox>>;
      try {
        outcome = await foldInbox(db, { upTo, limit: L.foldBatch });
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        // A batch the database refused: its events one at a time, so that only an event refused for
        // its own values is dropped, never the others of its batch.
        folded += await foldOneByOne(db, logger, upTo);
        continue;
      }
      folded += outcome.taken;
      // A batch committed: the inbox drains, so the recorder takes events again now rather than
      // once the whole backlog is folded.
      state.backlog = null;
      reportUnreadable(logger, outcome.unreadable);
      if (outcome.taken < L.foldBatch) break;
      // On SQLite a fold runs on this thread: a whole turn of the event loop (timers, I/O: other
      // requests) comes between two of its transactions.
      await sleep(0);
    }
  } catch (error) {
    if (!state.failing) {
      const level = isDatabaseUnavailable(error) ? 'warn' : 'error';
      logger[level]({ err: error, folded }, 'analytics fold failed; its events wait in the inbox');
    }
    state.failing = true;
    if (!isDatabaseUnavailable(error)) await countBacklog(db, state);
    return { folded, error };
  }
  if (state.failing) logger.info({ folded }, 'analytics folds again');
  state.failing = false;
  state.backlog = null;
  return { folded, error: null };
}

async function countBacklog(db: Db, state: Folding): Promise<void> {
  if (state.backlog && ++state.backlog.failuresSince < L.inboxCountEveryFailures) return;
  try {
    state.backlog = { events: await inboxSize(db), failuresSince: 0 };
  } catch {
    // Not counted this time: the last count stands.
  }
}

/**
 * The oldest batch's rows folded one by one. A row the database refuses for its values (a constraint,
 * a value out of range or too long for an index: isValueRefused) is deleted and logged, the others
 * stored; anything else (a table missing, the disk full) stops the fold, throwing, and nothing is dropped.
 */
async function foldOneByOne(db: Db, logger: Logger, upTo: string): Promise<number> {
  let folded = 0;
  for (const id of await oldestInboxIds(db, upTo, L.foldBatch)) {
    try {
      const outcome = await foldInbox(db, { id });
      folded += outcome.taken;
      reportUnreadable(logger, outcome.unreadable);
    } catch (error) {
      if (!isValueRefused(error)) throw error;
      if (await dropInboxRow(db, id)) {
        folded++;
        logger.error({ err: error, inboxId: id }, 'analytics event dropped: the database refuses its values');
      }
    }
  }
  return folded;
}

function reportUnreadable(logger: Logger, ids: string[]): void {
  if (ids.length > 0) logger.error({ inboxIds: ids }, 'analytics inbox rows dropped: not an event');
}
