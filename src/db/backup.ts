import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { SQLITE_BUSY_TIMEOUT_MS } from './node-sqlite-dialect.ts';

/**
 * Every page in one step of SQLite's online backup. Copied in steps, the backup restarts whenever
 * another connection (the running service) commits between two of them, so a busy database might never
 * finish; one step reads a single snapshot, which WAL mode takes without holding up the writers.
 * (Node 24 wants a positive page count: -1, SQLite's "all", is refused.)
 */
const ALL_PAGES = 2 ** 31 - 1;

export class BackupError extends Error {
  override name = 'BackupError';
}

/**
 * Copies the SQLite database at `sourcePath` to `targetPath` while it is in use: the copy is one
 * consistent snapshot (every transaction committed before the backup began, none that was still
 * open), checked with `PRAGMA integrity_check`, in rollback-journal mode so that it is one
 * self-contained file. It is written beside the target and renamed into place only when complete.
 * Refuses a missing source and an existing target.
 */
export async function backupSqlite(sourcePath: string, targetPath: string): Promise<{ pages: number }> {
  if (!existsSync(sourcePath)) throw new BackupError(`there is no database at ${sourcePath}`);
  if (existsSync(targetPath)) throw new BackupError(`${targetPath} exists: name a new file`);
  if (!existsSync(dirname(targetPath))) throw new BackupError(`there is no folder ${dirname(targetPath)}`);
  const partial = `${targetPath}.partial`;
  const removePartial = () =>
    Promise.all(['', '-journal', '-wal', '-shm'].map((suffix) => rm(partial + suffix, { force: true })));
  await removePartial();
  const source = new DatabaseSync(sourcePath, { readOnly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    const pages = await backup(source, partial, { rate: ALL_PAGES });
    const copy = new DatabaseSync(partial);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
      const problems = copy
        .prepare('PRAGMA integrity_check')
        .all()
        .map((row) => String(row.integrity_check))
        .filter((line) => line !== 'ok');
      if (problems.length > 0) throw new BackupError(`the copy failed its integrity check: ${problems[0]}`);
    } finally {
      copy.close();
    }
    await rename(partial, targetPath);
    return { pages };
  } catch (error) {
    await removePartial();
    throw error;
  } finally {
    source.close();
  }
}
