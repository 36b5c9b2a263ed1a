import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './database.ts';
import { MIGRATION_TABLE } from './migrate.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/** The longest the readiness check waits for the database before it calls it unreachable. */
export const READINESS_TIMEOUT_MS = 2000;

/** Why an instance is not ready, as `GET /ready` says it. */
export type NotReady =
  | 'starting'
  | 'shutting down'
  | 'the database did not answer in time'
  | 'the database is unreachable'
  | 'the database answered with an error'
  | 'the migrations are not applied';

/**
 * Whether this instance should be sent traffic (`GET /ready`): not while it starts (until the server
 * has marked it `serving`), not from the moment shutdown begins (the shutdown signal), and otherwise
 * only when the database answers, within READINESS_TIMEOUT_MS, that the last migration of this code
 * is applied: one lookup of a primary key, the cheapest query that proves both. Concurrent checks
 * share one query, so probes of a hanging database do not pile up connections. A change of answer is
 * logged (not every probe).
 */
export class Readiness {
  readonly #db: Db;
  readonly #latestMigration: string;
  readonly #shutdown: AbortSignal;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  #serving = false;
  #probe: Promise<NotReady | null> | null = null;
  #last: NotReady | null | undefined;

  constructor(options: {
    db: Db;
    latestMigration: string;
    shutdownSignal: AbortSignal;
    logger: Logger;
    timeoutMs?: number;
  }) {
    this.#db = options.db;
    this.#latestMigration = options.latestMigration;
    this.#shutdown = options.shutdownSignal;
    this.#logger = options.logger;
    this.#timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  }

  /** The server listens and its workers run: from now on the answer is the database's. */
  serving(): void {
    this.#serving = true;
  }

  /** null when ready, else why not. */
  async check(): Promise<NotReady | null> {
    if (this.#shutdown.aborted) return 'shutting down';
    if (!this.#serving) return 'starting';
    this.#probe ??= this.#probeDatabase().finally(() => {
      this.#probe = null;
    });
    const answer = await this.#probe;
    return this.#shutdown.aborted ? 'shutting down' : answer;
  }

  async #probeDatabase(): Promise<NotReady | null> {
    let timer: NodeJS.Timeout | undefined;
    let onShutdown: (() => void) | undefined;
    let failure: unknown;
    const query = sql<{
      name: string;
    }>`select name from ${sql.table(MIGRATION_TABLE)} where name = ${this.#latestMigration}`
      .execute(this.#db)
      .then(
        ({ rows }): NotReady | null => (rows.length > 0 ? null : 'the migrations are not applied'),
        (error: unknown): NotReady => {
          failure = error;
          return isDatabaseUnavailable(error)
            ? 'the database is unreachable'
            : 'the database answered with an error';
        },
      );
    // The query may run on (a pool waiting for a connection, a lock): the answer does not wait for it.
    const late = new Promise<NotReady>((resolve) => {
      timer = setTimeout(() => resolve('the database did not answer in time'), this.#timeoutMs);
      onShutdown = () => resolve('shutting down');
      this.#shutdown.addEventListener('abort', onShutdown, { once: true });
    });
    try {
      const answer = await Promise.race([query, late]);
      this.#log(answer, failure);
      return answer;
    } finally {
      clearTimeout(timer);
      if (onShutdown) this.#shutdown.removeEventListener('abort', onShutdown);
    }
  }

  /** Logs a change of answer: the first failure of a run of them, and the return to ready. */
  #log(answer: NotReady | null, error: unknown): void {
    if (answer === this.#last || answer === 'shutting down') return;
    if (answer !== null) this.#logger.warn({ err: error, reason: answer }, 'not ready');
    else if (this.#last !== undefined) this.#logger.info('ready again: the database answers');
    this.#last = answer;
  }
}
