/**
 * Counts the parts of a multipart body as its bytes pass, delimited the way busboy delimits them:
 * `\r\n--boundary` then CRLF opens a part, then `--` ends the body (the epilogue is not read). busboy
 * drops some parts without any event (no `Content-Disposition: form-data`, or one it cannot parse,
 * such as a `filename*` in a charset it does not know); comparing this count with its events shows
 * that a part went missing.
 */
export function multipartPartCounter(boundary: string) {
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  /** A match needs the delimiter and the two bytes after it. */
  const matchBytes = delimiter.length + 2;
  // busboy reads the body as if a CRLF preceded it, so a first boundary with no preamble counts.
  let carried: Buffer = Buffer.from('\r\n');
  let parts = 0;
  let ended = false;

  function push(chunk: Uint8Array): void {
    if (ended) return;
    const data = Buffer.concat([carried, chunk]);
    let from = 0;
    for (;;) {
      const at = data.indexOf(delimiter, from);
      if (at < 0 || at + matchBytes > data.length) {
        // Keep what could still begin a match once more bytes arrive.
        carried = Buffer.from(data.subarray(at < 0 ? Math.max(from, data.length - matchBytes + 1) : at));
        return;
      }
      const after = at + delimiter.length;
      if (data[after] === 0x2d && data[after + 1] === 0x2d) {
        ended = true;
        return;
      }
      if (data[after] === 0x0d && data[after + 1] === 0x0a) parts++;
      from = after;
    }
  }

  return {
    push,
    /** Parts opened so far. */
    get parts() {
      return parts;
    },
  };
}

/** The boundary parameter of a multipart Content-Type (quoted or not), or null. */
export function multipartBoundary(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}
