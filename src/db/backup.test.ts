import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { backupSqlite } from './backup.ts';

const folder = mkdtempSync(join(tmpdir(), 'backup-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SEEDED_ROWS = 3000;
const PAYLOAD_BYTES = 1500;

/**
 * A ledger whose every transaction adds a row (a random payload and its SHA-256) and counts it in
 * `totals`: a copy is consistent when the count, the byte sum and every digest agree.
 */
function createLedger(path: string): void {
  const db = new DatabaseSync(path);
  db.exec(`
    PRAGMA journal_mode = WAL;
    CREATE TABLE ledger (id INTEGER PRIMARY KEY, payload BLOB NOT NULL, digest TEXT NOT NULL);
    CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), rows INTEGER NOT NULL, bytes INTEGER NOT NULL);
    INSERT INTO totals VALUES (1, 0, 0);
  `);
  const insert = db.prepare('INSERT INTO ledger (payload, digest) VALUES (?, ?)');
  db.exec('BEGIN');
  for (let i = 0; i < SEEDED_ROWS; i++) {
    const payload = randomBytes(PAYLOAD_BYTES);
    insert.run(payload, createHash('sha256').update(payload).digest('hex'));
  }
  db.prepare('UPDATE totals SET rows = ?, bytes = ?').run(SEEDED_ROWS, SEEDED_ROWS * PAYLOAD_BYTES);
  db.exec('COMMIT');
  db.close();
}

/** Opens a copy and checks it: integrity, the totals against the rows, every digest. Returns the row count. */
function verifiedRowCount(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' });
    const totals = db.prepare('SELECT rows, bytes FROM totals').get() as { rows: number; bytes: number };
    const actual = db.prepare('SELECT count(*) AS rows, sum(length(payload)) AS bytes FROM ledger').get() as {
      rows: number;
      bytes: number;
    };
    expect({ ...actual }).toEqual({ ...totals });
    for (const row of db.prepare('SELECT payload, digest FROM ledger').iterate()) {
      const { payload, digest } = row as { payload: Uint8Array; digest: string };
      if (createHash('sha256').update(payload).digest('hex') !== digest) throw new Error('a torn row');
    }
    return actual.rows;
  } finally {
    db.close();
  }
}

/**
 * A writer on its own connection in its own thread: `hold` opens a transaction, writes 500 rows and
 * waits for a go before committing; `loop` commits one-row transactions until told to stop. Progress is
 * shared through `counters`: [0] committed transactions, [1] the stop/go flag.
 */
const WRITER = `
const { DatabaseSync } = require('node:sqlite');
const { createHash, randomBytes } = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
const { path, mode, counters } = workerData;
const db = new DatabaseSync(path, { timeout: 5000 });
// Commits as fast as the machine allows (no waiting for the disk): a backup copied in steps would
// start over after nearly every one of them.
db.exec('PRAGMA synchronous = OFF');
const insert = db.prepare('INSERT INTO ledger (payload, digest) VALUES (?, ?)');
const count = db.prepare('UPDATE totals SET rows = rows + 1, bytes = bytes + ?');
const addRow = () => {
  const payload = randomBytes(${PAYLOAD_BYTES});
  insert.run(payload, createHash('sha256').update(payload).digest('hex'));
  count.run(payload.length);
};
if (mode === 'hold') {
  db.exec('BEGIN IMMEDIATE');
  for (let i = 0; i < 500; i++) addRow();
  parentPort.postMessage('holding');
  Atomics.wait(counters, 1, 0);
  db.exec('COMMIT');
  Atomics.add(counters, 0, 1);
} else {
  while (Atomics.load(counters, 1) === 0) {
    db.exec('BEGIN IMMEDIATE');
    addRow();
    db.exec('COMMIT');
    if (Atomics.add(counters, 0, 1) === 99) parentPort.postMessage('writing');
  }
}
db.close();
`;

function startWriter(path: string, mode: 'hold' | 'loop') {
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WRITER, { eval: true, workerData: { path, mode, counters } });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const said = (message: string) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (m) => m === message && resolve());
      worker.once('error', reject);
      worker.once('exit', () => reject(new Error(`the writer ended before saying ${message}`)));
    });
  return {
    said,
    committed: () => Atomics.load(counters, 0),
    /** Lets a held transaction commit, or stops the loop; resolves when the thread has ended. */
    release: () => {
      Atomics.store(counters, 1, 1);
      Atomics.notify(counters, 1);
      return exited;
    },
  };
}

describe('backupSqlite: an online backup', () => {
  it('leaves out a transaction still open while it runs, holds everything committed, and does not wait for the writer', async () => {
    const source = join(folder, 'held.db');
    const target = join(folder, 'held-backup.db');
    createLedger(source);
    const writer = startWriter(source, 'hold');
    await writer.said('holding');
    try {
      await backupSqlite(source, target);
    } finally {
      await writer.release();
    }
    expect(verifiedRowCount(target)).toBe(SEEDED_ROWS);
    const after = new DatabaseSync(source, { readOnly: true });
    expect(after.prepare('SELECT rows FROM totals').get()).toEqual({ rows: SEEDED_ROWS + 500 });
    after.close();
  });

  it('finishes while another connection commits without pause, with a consistent copy of one moment', async () => {
    const source = join(folder, 'busy.db');
    const target = join(folder, 'busy-backup.db');
    createLedger(source);
    const writer = startWriter(source, 'loop');
    await writer.said('writing');
    const before = writer.committed();
    try {
      await backupSqlite(source, target);
    } finally {
      await writer.release();
    }
    const after = writer.committed();
    const rows = verifiedRowCount(target);
    expect(rows).toBeGreaterThanOrEqual(SEEDED_ROWS + before);
    expect(rows).toBeLessThanOrEqual(SEEDED_ROWS + after);
  });

  it('refuses an existing target (untouched), a missing source and a missing folder, and leaves no partial file', async () => {
    const own = mkdtempSync(join(folder, 'refusals-'));
    const source = join(own, 'app.db');
    createLedger(source);
    const existing = join(own, 'existing.db');
    writeFileSync(existing, 'an older backup');
    await expect(backupSqlite(source, existing)).rejects.toThrow(`${existing} exists`);
    await expect(backupSqlite(join(own, 'absent.db'), join(own, 'new.db'))).rejects.toThrow(
      'there is no database at',
    );
    await expect(backupSqlite(source, join(own, 'no-such-folder', 'new.db'))).rejects.toThrow(
      'there is no folder',
    );
    expect(readdirSync(own).sort()).toEqual(['app.db', 'existing.db']);
    expect(readFileSync(existing, 'utf8')).toBe('an older backup');
  });
});
