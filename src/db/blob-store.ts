import { createHash, randomUUID } from 'node:crypto';
import type { DbOrTx } from './database.ts';
import { bigint, bytes, type RowOf, table, text } from './table-spec.ts';

/** The `blobs` table (migration 0008). */
export const blobsTable = table({
  id: text(),
  sha256: text(),
  size: bigint(),
  /** BLOB on SQLite, BYTEA on PostgreSQL. */
  content: bytes(),
  created_at: bigint(),
});

declare module './schema.ts' {
  interface Database {
    blobs: RowOf<typeof blobsTable>;
  }
}

/**
 * Bytes kept in the database (uploaded attachments): written inside the caller's transaction, read
 * back by id (e.g. by the mail queue when it sends an attachment). Table created by 0008_support.
 */
export interface StoredBlob {
  id: string;
  sha256: string;
  size: number;
}

export async function putBlob(db: DbOrTx, bytes: Uint8Array): Promise<StoredBlob> {
  const blob = {
    id: `blob_${randomUUID()}`,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.byteLength,
  };
  await db
    .insertInto('blobs')
    .values({
      ...blob,
      content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      created_at: Date.now(),
    })
    .execute();
  return blob;
}

export async function getBlob(db: DbOrTx, id: string): Promise<Buffer | null> {
  const row = await db.selectFrom('blobs').select('content').where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const content = row.content;
  return Buffer.isBuffer(content)
    ? content
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/**
 * Deletes blobs by id in the caller's transaction (the rows that named them go in the same one, first:
 * their foreign keys point here). Blobs live in the database, so the bytes go with the commit and a
 * crash before it leaves both in place: no row ever names a deleted blob.
 */
export async function deleteBlobs(db: DbOrTx, ids: readonly string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += 200) {
    const result = await db
      .deleteFrom('blobs')
      .where('id', 'in', ids.slice(i, i + 200))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
