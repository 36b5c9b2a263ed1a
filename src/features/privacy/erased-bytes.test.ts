import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  createPersonEverywhere,
  drainSideEffects,
  newPerson,
  PRIVACY_ENV,
  served,
} from '../../../test/support/features/privacy.ts';
import { startTestServer } from '../../../test/support/test-app.ts';

/**
 * An erasure is in the bytes of the SQLite file too, not only in what SELECT answers: deleted rows
 * stay readable in a page's free space, on the free list and in the write-ahead log unless SQLite
 * overwrites them (`secure_delete`) and the log is emptied after the erasure. Anyone holding the file
 * or a backup taken after the erasure (`npm run db:backup` copies the free pages too) could read them.
 */
describe('erasing one person leaves nothing in the SQLite file', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'erased-bytes-'));
  const file = join(dir, 'app.sqlite');
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const ana = newPerson('Ana');
  const bea = newPerson('Bea');

  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite', sqlitePath: file, env: PRIVACY_ENV });
    for (const person of [ana, bea]) await createPersonEverywhere(served(server.url), person);
    await drainSideEffects(server);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The database file and its write-ahead log, as anyone reading the disk would see them. */
  const bytesOnDisk = () =>
    Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f))).toString(
      'latin1',
    );

  it('overwrites the erased rows and empties the write-ahead log', async () => {
    const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    expect(bytesOnDisk()).toContain(utf8(ana.email));
    const res = await adminCall(
      served(server.url),
      'DELETE',
      `/admin/api/personal-data?email=${encodeURIComponent(ana.email)}`,
    );
    expect(res.status).toBe(200);
    const disk = bytesOnDisk();
    for (const needle of [ana.email, ana.name]) expect(disk, needle).not.toContain(utf8(needle));
    // The other person is still there, found by the same search.
    expect(disk).toContain(utf8(bea.email));
  });
});
