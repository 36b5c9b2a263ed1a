import { QUERY_READ_TIMEOUT_MESSAGE } from './database.ts';

/**
 * Errors that mean the database could not be reached or dropped the connection (a restart, a
 * failover, a terminated backend; for SQLite a file locked by another process past the busy timeout,
 * or one that cannot be read), as opposed to a query the database refused. They pass: a request gets
 * 503 with `Retry-After` instead of a 500, a job is retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (matches(current as Error & { code?: unknown; errcode?: unknown })) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Errors that mean the database refused a statement for the values it was given, which the same
 * values will meet again: PostgreSQL SQLSTATE classes 21 (cardinality: an upsert hitting one row
 * twice), 22 (data exception: out of range, bad encoding), 23 (integrity constraint) and 54 (a
 * program limit: an index row too large); SQLite TOOBIG, CONSTRAINT, MISMATCH and RANGE. Not an
 * outage, not a missing table or a full disk: those pass or need an operator, whatever the values.
 */
export function isValueRefused(error: unknown): boolean {
  const { code, errcode } =
    error instanceof Error ? (error as Error & { code?: unknown; errcode?: unknown }) : {};
  if (code === 'ERR_SQLITE_ERROR')
    return typeof errcode === 'number' && SQLITE_VALUE_CODES.has(errcode & 0xff);
  return typeof code === 'string' && /^(21|22|23|54)...$/.test(code);
}

const SQLITE_VALUE_CODES = new Set([18, 19, 20, 25]);

/** How long a client is asked to wait before trying again (`Retry-After`, seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01–57P03 (admin or crash shutdown, cannot
 * connect now: a restart or failover), 53300 (too many connections), 25006 (read-only transaction: a
 * failover's old primary, now a standby), and what a connection is refused with while the database
 * is closed to connections (55000, `ALTER DATABASE … ALLOW_CONNECTIONS false` during maintenance) or
 * not there (3D000, dropped or not yet restored); and a statement cancelled by its statement timeout
 * (57014: a lock held elsewhere, an overloaded server; see openDatabase). The service's queries use
 * nothing else that raises 55000 (a sequence's currval, a replication slot).
 */
const POSTGRES_STATES = /^(08...|57P0[123]|53300|25006|55000|3D000|57014)$/;

/** Socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres throws for a connection that ended, broke or could not be had in time. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  QUERY_READ_TIMEOUT_MESSAGE,
];

/**
 * SQLite primary result codes: BUSY, LOCKED, READONLY (a file that cannot be written; also
 * READONLY_DBMOVED, when SQLite notices the file was moved or deleted under the connection), IOERR,
 * CANTOPEN, NOTADB.
 */
const SQLITE_CODES = new Set([5, 6, 8, 10, 14, 26]);

function matches(error: Error & { code?: unknown; errcode?: unknown }): boolean {
  const { code } = error;
  if (code === 'ERR_SQLITE_ERROR') {
    return typeof error.errcode === 'number' && SQLITE_CODES.has(error.errcode & 0xff);
  }
  if (typeof code === 'string' && (POSTGRES_STATES.test(code) || SOCKET_CODES.has(code))) return true;
  return PG_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message));
}

/**
 * Tries of a write that must not be lost to an outage: 250 ms apart, doubling, ~64 s in all (a managed
 * PostgreSQL's failover takes 30–60 s; an e-mail whose `sent` could not be written is sent again).
 */
const OUTAGE_TRIES = 9;
const OUTAGE_FIRST_WAIT_MS = 250;

/**
 * Runs `write`, again while the database is unavailable (a restart, a failover: seconds), for a write
 * recording what was done outside it (an e-mail sent, a job finished), which would otherwise be done
 * twice. The write must be safe to repeat (it may have landed before its answer was lost). Other
 * errors, and the last try's, are thrown.
 */
export async function writeThroughOutage<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= OUTAGE_TRIES || !isDatabaseUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_FIRST_WAIT_MS * 2 ** (attempt - 1)));
    }
  }
}
