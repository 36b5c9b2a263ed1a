import busboy from 'busboy';
import { UploadRefusal } from './errors.ts';
import { MAX_DRAINED_BYTES, MAX_TICKET_BODY_BYTES, UPLOAD_LIMITS } from './limits.ts';
import { multipartBoundary, multipartPartCounter } from './multipart-parts.ts';
import { type ParsedUpload, Upload } from './upload.ts';

export interface UploadOptions {
  /** The whole body must arrive within this time. */
  timeoutMs: number;
  idleTimeoutMs?: number;
  /** The field that carries files (repeated). */
  fileField?: string;
}

const BODY_TOO_LARGE = `The upload is larger than ${MAX_TICKET_BODY_BYTES} bytes.`;

/** busboy's own bounds, from UPLOAD_LIMITS. */
const PARSER_LIMITS: busboy.Limits = {
  // busboy's own count includes a browser's empty file input, which is ignored: it bounds the file
  // parts, and files with bytes are counted by the Upload against `maxFiles`.
  files: UPLOAD_LIMITS.maxFileParts,
  // busboy emits 'limit' once a file REACHES `fileSize` bytes: one more than the limit, so a file of
  // exactly `maxFileBytes` passes and 'limit' means the limit was exceeded.
  fileSize: UPLOAD_LIMITS.maxFileBytes + 1,
  fields: UPLOAD_LIMITS.maxFields,
  fieldSize: UPLOAD_LIMITS.maxFieldBytes,
  parts: UPLOAD_LIMITS.maxParts,
  fieldNameSize: UPLOAD_LIMITS.maxFieldNameBytes,
};

/**
 * Reads a multipart/form-data body while it streams in, enforcing UPLOAD_LIMITS as bytes arrive: the
 * sixth file with bytes or too many file parts (a browser's empty file input is ignored but counts
 * as a part), a file over the per-file size or files over the total, a file whose bytes are not an
 * allowed type, too many or too long fields, a body that stalls or never ends, a body over
 * MAX_TICKET_BODY_BYTES (declared, or counted as it arrives), an `attachments` part with bytes but no
 * file name, or a part busboy could not read and dropped. The first violation ends the read at once
 * (an UploadRefusal); nothing has been stored at that point. The rules of the parts are the Upload's
 * (upload.ts); this function feeds it the body.
 */
export async function readMultipart(request: Request, options: UploadOptions): Promise<ParsedUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new UploadRefusal('not_multipart', 'The request body must be sent as multipart/form-data.');
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_TICKET_BODY_BYTES) {
    throw new UploadRefusal('too_large', BODY_TOO_LARGE);
  }
  if (!request.body) throw new UploadRefusal('no_body', 'The request has no body.');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: PARSER_LIMITS,
    });
  } catch {
    throw new UploadRefusal('no_boundary', 'The multipart body is malformed (no usable boundary).');
  }
  const upload = new Upload(options.fileField ?? 'attachments');
  const parsed = upload.listen(parser);
  const partCounter = multipartPartCounter(multipartBoundary(contentType) ?? '');
  await pump(request.body, parser, upload, {
    deadline: Date.now() + options.timeoutMs,
    idleMs: Math.min(options.idleTimeoutMs ?? UPLOAD_LIMITS.idleTimeoutMs, options.timeoutMs),
    onChunk: partCounter.push,
  });
  if (!upload.refused) await parsed;
  if (!upload.refused && partCounter.parts > upload.partsSeen) {
    upload.refuse(
      'invalid',
      'A part of the multipart body could not be read: its Content-Disposition is missing or malformed.',
    );
  }
  return upload.settle();
}

/**
 * Feeds the body into the parser chunk by chunk, with backpressure, until it ends or a time bound
 * passes. Every byte counts toward MAX_TICKET_BODY_BYTES, the preamble and epilogue that busboy
 * skips included: a chunked body has no Content-Length to refuse up front. Once the upload is refused
 * nothing more is parsed or kept, but the rest of the body is still read and discarded (up to
 * MAX_DRAINED_BYTES, within the same time bounds) so the client, which is still sending, can read
 * the 4xx answer; cancelling the body would reset the connection instead.
 */
async function pump(
  body: ReadableStream<Uint8Array>,
  parser: busboy.Busboy,
  upload: Upload,
  options: {
    deadline: number;
    idleMs: number;
    /** Sees every chunk the parser is given. */
    onChunk: (chunk: Uint8Array) => void;
  },
): Promise<void> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let received = 0;
  let discarded = 0;
  try {
    for (;;) {
      const remaining = options.deadline - Date.now();
      const wait = Math.min(remaining, options.idleMs);
      const next = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), Math.max(0, wait));
        }),
      ]);
      clearTimeout(timer);
      if (next === 'timeout') {
        upload.refuse(
          'timeout',
          remaining <= options.idleMs
            ? 'The upload did not complete in time.'
            : 'The upload stalled: no data arrived for too long.',
        );
        return;
      }
      if (next.done) {
        if (!upload.refused) parser.end();
        return;
      }
      received += next.value.byteLength;
      if (received > MAX_TICKET_BODY_BYTES) upload.refuse('too_large', BODY_TOO_LARGE);
      if (upload.refused) {
        discarded += next.value.byteLength;
        if (discarded > MAX_DRAINED_BYTES) return;
        continue;
      }
      options.onChunk(next.value);
      if (!parser.write(next.value)) await drained(parser);
    }
  } catch {
    // The client went away mid-body.
    upload.refuse('invalid', 'The upload was interrupted.');
  } finally {
    clearTimeout(timer);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after a time bound: nothing more to do with this body.
    }
  }
}

/** Resolves when the parser wants more bytes again (or will never want any). */
function drained(parser: busboy.Busboy): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      parser.off('error', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
    parser.on('error', done);
  });
}
