import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, writeThroughOutage } from './unavailable.ts';

/** What a statement throws when another connection holds the SQLite file's write lock. */
function sqliteBusyError(): unknown {
  const directory = mkdtempSync(join(tmpdir(), 'unavailable-'));
  const holder = new DatabaseSync(join(directory, 'db'));
  const other = new DatabaseSync(join(directory, 'db'), { timeout: 0 });
  try {
    holder.exec('create table t (x); begin exclusive');
    other.exec('insert into t values (1)');
    return null;
  } catch (error) {
    return error;
  } finally {
    holder.close();
    other.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a lost or unreachable database, on either engine, also as the cause of another error', () => {
    expect(isDatabaseUnavailable(sqliteBusyError())).toBe(true);
    for (const error of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      pgError('55000', 'database "app" is not currently accepting connections'),
      pgError('3D000', 'database "app" does not exist'),
      Object.assign(new Error('attempt to write a readonly database'), {
        code: 'ERR_SQLITE_ERROR',
        errcode: 1032, // SQLITE_READONLY_DBMOVED: the file was moved or deleted under the connection
      }),
      pgError('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('the lead could not be stored', { cause: pgError('57P01') }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('leaves the errors of a query the database refused (or anything else) alone', () => {
    for (const error of [
      pgError('23505', 'duplicate key value violates unique constraint'),
      pgError('42P01', 'relation "leads" does not exist'),
      Object.assign(new Error('UNIQUE constraint failed: leads.id'), {
        code: 'ERR_SQLITE_ERROR',
        errcode: 2067,
      }),
      new Error('Connection to the CRM failed'),
      'Connection terminated',
      null,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

describe('writeThroughOutage', () => {
  it('tries again while the database is away, and gives any other error back at once', async () => {
    let calls = 0;
    expect(
      await writeThroughOutage(async () => {
        if (++calls < 3) throw new Error('Connection terminated unexpectedly');
        return 'written';
      }),
    ).toBe('written');
    expect(calls).toBe(3);

    calls = 0;
    const refused = pgError('23505');
    await expect(
      writeThroughOutage(async () => {
        calls++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });
});
