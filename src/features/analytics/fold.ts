import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { dropInboxRow, type FoldOutcome, foldInbox, oldestInboxId } from './store.ts';

interface Folding {
  running: Promise<number> | null;
  queued: Promise<number> | null;
}
const foldingOf = new WeakMap<Db, Folding>();

/**
 * Folds the inbox (every instance's rows, store.ts foldInbox) until it is empty as it was when
 * called: what the recorder does after its commits and every read of the analytics does first, so
 * a reader sees every event acknowledged before it asked. Never throws: a failure is logged and the
 * rows stay for the next fold. A call while a fold of the same database runs waits for it and runs
 * one more (at most one waits). Answers how many inbox rows this call folded.
 */
export function foldPending(db: Db, logger: Logger): Promise<number> {
  let folding = foldingOf.get(db);
  if (folding === undefined) {
    folding = { running: null, queued: null };
    foldingOf.set(db, folding);
  }
  const state = folding;
  if (state.queued) return state.queued;
  if (state.running) {
    state.queued = state.running.then(() => {
      state.queued = null;
      return foldPending(db, logger);
    });
    return state.queued;
  }
  state.running = foldAll(db, logger).finally(() => {
    state.running = null;
  });
  return state.running;
}

async function foldAll(db: Db, logger: Logger): Promise<number> {
  let folded = 0;
  try {
    for (;;) {
      const { taken, unreadable } = await foldInbox(db, L.foldBatch);
      folded += taken;
      reportUnreadable(logger, unreadable);
      if (taken < L.foldBatch) return folded;
    }
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error }, 'analytics fold failed');
      return folded;
    }
    logger.error({ err: error }, 'analytics fold failed; folding one event at a time');
    return folded + (await foldOneByOne(db, logger));
  }
}

/**
 * After a batch failed: row by row. A row that fails alone, twice, while the row after it can be
 * stored is an event the database refuses (it would hold up every fold after it): it is dropped
 * and logged. When the next row fails too, the fault is not the event's, and nothing is dropped.
 */
async function foldOneByOne(db: Db, logger: Logger): Promise<number> {
  for (let folded = 0; ; ) {
    const oldestId = await oldestInboxId(db).catch(() => null);
    if (oldestId === null) return folded;
    const oldest = (await attempt(db, logger, 0)) ?? (await attempt(db, logger, 0));
    if (oldest === 'unavailable') return folded;
    if (oldest) {
      folded += oldest.taken;
      continue;
    }
    const next = await attempt(db, logger, 1);
    if (next === null || next === 'unavailable' || next.taken === 0) return folded;
    folded += next.taken;
    if (await dropInboxRow(db, oldestId).catch(() => false)) {
      logger.error({ inboxId: oldestId }, 'analytics event dropped: the database refuses it');
    }
  }
}

/** One row folded (`skip` rows after the oldest): its outcome, null if it failed, or 'unavailable'. */
async function attempt(db: Db, logger: Logger, skip: number): Promise<FoldOutcome | null | 'unavailable'> {
  try {
    const outcome = await foldInbox(db, 1, skip);
    reportUnreadable(logger, outcome.unreadable);
    return outcome;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return 'unavailable';
    logger.error({ err: error }, 'analytics fold of one event failed');
    return null;
  }
}

function reportUnreadable(logger: Logger, ids: string[]): void {
  if (ids.length > 0) logger.error({ inboxIds: ids }, 'analytics inbox rows dropped: not an event');
}
