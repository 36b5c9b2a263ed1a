import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './node-sqlite-dialect.ts';

const dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A thread that holds the file's write lock from a connection of its own, and lets go 200 ms after
 * it is told to: opening blocks the test's thread, so the letting go must not need it.
 */
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('begin immediate');
parentPort.postMessage('held');
parentPort.once('message', () =>
  setTimeout(() => { db.exec('commit'); db.close(); parentPort.postMessage('released'); }, 200));
`;

describe('opening a SQLite file', () => {
  it('waits for another connection’s write lock before switching the file to WAL, instead of failing at once', async () => {
    const path = join(dir, 'locked.sqlite');
    const setup = new DatabaseSync(path);
    setup.exec('create table t (x integer)');
    setup.close();

    const holder = new Worker(LOCK_HOLDER, { eval: true, workerData: { path } });
    await once(holder, 'message');
    const released = once(holder, 'message');
    holder.postMessage('let go');
    try {
      // SQLite answers the switch's lock upgrade with SQLITE_BUSY at once, busy timeout or not.
      const db = openSqlite(path);
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      db.close();
    } finally {
      await released;
    }
  });
});
