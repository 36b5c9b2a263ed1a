import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { UploadRefusal, type UploadRefusalReason } from './errors.ts';
import { sanitizeFileName, withExtension } from './file-names.ts';
import { ALLOWED_FILE_TYPES, MAX_TICKET_BODY_BYTES, TEXT_TYPE, UPLOAD_LIMITS } from './limits.ts';
import { multipartBoundary, multipartPartCounter } from './multipart-parts.ts';

/** An accepted attachment, held in memory until the whole ticket is valid (at most 25 MB in all). */
export interface UploadedFile {
  position: number;
  originalName: string;
  /** Sanitised, with an extension matching the detected type. */
  filename: string;
  /** What the client claimed (kept for the record, never trusted). */
  declaredType: string | null;
  /** Detected from the bytes. */
  contentType: string;
  bytes: Buffer;
}

export interface ParsedUpload {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface UploadOptions {
  /** The whole body must arrive within this time. */
  timeoutMs: number;
  idleTimeoutMs?: number;
  /** The field that carries files (repeated). */
  fileField?: string;
}

/** Bytes `file-type` needs to recognise every allowed format. */
const SNIFF_BYTES = 4100;
/** After a violation, at most this much of the rest of a body is read (and dropped) before answering. */
const DRAIN_LIMIT_BYTES = MAX_TICKET_BODY_BYTES;

const fail = (reason: UploadRefusalReason, message: string) => new UploadRefusal(reason, message);
const bodyTooLarge = () => fail('too_large', `The upload is larger than ${MAX_TICKET_BODY_BYTES} bytes.`);

/** Tab, LF, FF, CR. */
const ALLOWED_TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Plain text: valid UTF-8 and no control characters (C0, DEL, C1) except tab, LF, CR and form feed.
 * C1 matters as much as ESC: U+009B alone starts a terminal control sequence.
 */
function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !ALLOWED_TEXT_CONTROLS.has(code)) || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return true;
}

/**
 * Reads a multipart/form-data body while it streams in, enforcing UPLOAD_LIMITS as bytes arrive: the
 * sixth file with bytes or too many file parts (400; a browser's empty file input is ignored but
 * counts as a part), a file over the per-file size or files over the total (413), a file whose bytes
 * are not an allowed type (415), too many or too long fields (400), a body that stalls or never ends
 * (408), a body over MAX_TICKET_BODY_BYTES, declared or counted as it arrives (413), an `attachments`
 * part with bytes but no file name, or a part busboy could not read and dropped (400). The first
 * violation ends the read at once (an UploadRefusal); nothing has been stored at that point.
 */
export async function readMultipart(request: Request, options: UploadOptions): Promise<ParsedUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw fail('not_multipart', 'The request body must be sent as multipart/form-data.');
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_TICKET_BODY_BYTES) throw bodyTooLarge();
  if (!request.body) throw fail('no_body', 'The request has no body.');

  const fileField = options.fileField ?? 'attachments';
  const idleMs = Math.min(options.idleTimeoutMs ?? UPLOAD_LIMITS.idleTimeoutMs, options.timeoutMs);
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const pending: Promise<void>[] = [];
  let totalFileBytes = 0;
  let failure: UploadRefusal | null = null;
  /** File parts seen, empty ones included (their order); bounded by busboy (`maxFileParts`). */
  let filePartCount = 0;
  /** Files with at least one byte: these count toward `maxFiles`. */
  let fileCount = 0;
  /** Text parts seen; with the file parts, every part busboy did not drop. */
  let fieldPartCount = 0;
  const partCounter = multipartPartCounter(multipartBoundary(contentType) ?? '');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        // busboy's own count includes a browser's empty file input, which is ignored: it bounds the
        // file parts, and files with bytes are counted below against `maxFiles`.
        files: UPLOAD_LIMITS.maxFileParts,
        // busboy emits 'limit' once a file REACHES `fileSize` bytes: one more than the limit, so a
        // file of exactly `maxFileBytes` passes and 'limit' means the limit was exceeded.
        fileSize: UPLOAD_LIMITS.maxFileBytes + 1,
        fields: UPLOAD_LIMITS.maxFields,
        fieldSize: UPLOAD_LIMITS.maxFieldBytes,
        parts: UPLOAD_LIMITS.maxParts,
        fieldNameSize: 100,
      },
    });
  } catch {
    throw fail('no_boundary', 'The multipart body is malformed (no usable boundary).');
  }
  const malformed = () => fail('invalid', 'The multipart body is malformed or incomplete.');
  const unnamed = () => fail('invalid', `${fileField}: each part must be a file with a file name.`);
  const setFailure = (error: UploadRefusal) => {
    failure ??= error;
  };

  parser.on('field', (name, value, info) => {
    fieldPartCount++;
    // busboy reads a file part with an empty file name (`filename=""`) as a text field unless it is
    // declared application/octet-stream: its bytes would be lost.
    if (name === fileField) {
      if (value === '' && !info.valueTruncated) return; // nothing to lose: like an empty file input
      return setFailure(unnamed());
    }
    if (info.nameTruncated || info.valueTruncated) {
      return setFailure(fail('invalid', `${name}: the field is too long.`));
    }
    if (Object.hasOwn(fields, name)) return setFailure(fail('invalid', `${name}: sent more than once.`));
    fields[name] = value;
  });

  parser.on('file', (name, stream, info) => {
    const part = ++filePartCount;
    let position = 0; // among the files with bytes, set when the first byte arrives
    // A body that ends inside a file part destroys the file stream with busboy's error: without a
    // listener that error is uncaught and takes the process down. The parser's own error handler
    // records the failure.
    stream.on('error', () => setFailure(malformed()));
    if (failure || name !== fileField) {
      if (!failure) setFailure(fail('invalid', `Files are only accepted in the field "${fileField}".`));
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let sniffed: Promise<void> | null = null;
    let detected: string | null | undefined; // undefined: not yet known; null: no magic number
    const sniff = () => {
      sniffed ??= fileTypeFromBuffer(Buffer.concat(chunks).subarray(0, SNIFF_BYTES))
        .catch(() => undefined)
        .then((type) => {
          detected = type?.mime ?? null;
          if (detected !== null && !ALLOWED_FILE_TYPES[detected]) {
            setFailure(
              fail(
                'file_type',
                `${sanitizeFileName(info.filename ?? '', position)}: files of type ${detected} are not accepted.`,
              ),
            );
          }
        });
      return sniffed;
    };
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      if (position === 0 && chunk.length > 0) {
        // Declared application/octet-stream, a part without a file name (empty or missing) is a file
        // to busboy, with `filename` undefined: the same rule as for the text-field reading above. A
        // name that busboy's basename emptied (`..`, `dir/`) is '' and gets `attachment-<n>`.
        if (info.filename === undefined) return setFailure(unnamed());
        position = ++fileCount;
        if (fileCount > UPLOAD_LIMITS.maxFiles) {
          setFailure(fail('invalid', `At most ${UPLOAD_LIMITS.maxFiles} attachments may be sent.`));
          return;
        }
      }
      size += chunk.length;
      totalFileBytes += chunk.length;
      if (totalFileBytes > UPLOAD_LIMITS.maxTotalFileBytes) {
        setFailure(
          fail('too_large', `The attachments together exceed ${UPLOAD_LIMITS.maxTotalFileBytes} bytes.`),
        );
        return;
      }
      chunks.push(chunk);
      if (size >= SNIFF_BYTES) void sniff();
    });
    stream.on('limit', () => {
      setFailure(
        fail(
          'too_large',
          `${sanitizeFileName(info.filename ?? '', position)}: a file may be at most ${UPLOAD_LIMITS.maxFileBytes} bytes.`,
        ),
      );
    });
    pending.push(
      new Promise<void>((resolve) => {
        stream.on('error', () => resolve());
        stream.on('end', () => {
          if (failure) return resolve();
          if (size === 0 && !info.filename) return resolve(); // an empty file input of a browser form
          const original = info.filename ?? '';
          if (size === 0) {
            setFailure(fail('invalid', `${sanitizeFileName(original, fileCount + 1)}: the file is empty.`));
            return resolve();
          }
          void sniff().then(() => {
            if (failure) return resolve();
            const bytes = Buffer.concat(chunks);
            const safeName = sanitizeFileName(original, position);
            let type: string;
            let extensions: readonly string[];
            if (detected) {
              type = detected;
              extensions = ALLOWED_FILE_TYPES[detected]!;
            } else if (isPlainText(bytes)) {
              type = TEXT_TYPE.contentType;
              extensions = TEXT_TYPE.extensions;
            } else {
              setFailure(fail('file_type', `${safeName}: this type of file is not accepted.`));
              return resolve();
            }
            files.push({
              position: part, // renumbered 1..n below
              originalName: original.slice(0, 1000),
              filename: withExtension(safeName, extensions),
              declaredType: info.mimeType ? info.mimeType.slice(0, 200) : null,
              contentType: type,
              bytes,
            });
            resolve();
          });
        });
      }),
    );
  });

  parser.on('filesLimit', () =>
    setFailure(fail('invalid', `At most ${UPLOAD_LIMITS.maxFileParts} file parts may be sent.`)),
  );
  parser.on('fieldsLimit', () =>
    setFailure(fail('invalid', `At most ${UPLOAD_LIMITS.maxFields} fields may be sent.`)),
  );
  parser.on('partsLimit', () => setFailure(fail('invalid', 'The multipart body has too many parts.')));

  const parsed = new Promise<void>((resolve) => {
    parser.on('close', () => resolve());
    parser.on('error', () => {
      setFailure(malformed());
      resolve();
    });
  });

  await pump(request.body, parser, {
    deadline: Date.now() + options.timeoutMs,
    idleMs,
    stopped: () => failure !== null,
    onFailure: setFailure,
    onChunk: partCounter.push,
  });
  if (!failure) await parsed;
  if (!failure && partCounter.parts > filePartCount + fieldPartCount) {
    setFailure(
      fail(
        'invalid',
        'A part of the multipart body could not be read: its Content-Disposition is missing or malformed.',
      ),
    );
  }
  if (!failure) await Promise.all(pending);
  if (failure) throw failure;
  files.sort((a, b) => a.position - b.position);
  return { fields, files: files.map((f, index) => ({ ...f, position: index + 1 })) };
}

/**
 * Feeds the body into the parser chunk by chunk, with backpressure, until it ends or a time bound
 * passes. Every byte counts toward MAX_TICKET_BODY_BYTES, the preamble and epilogue that busboy
 * skips included: a chunked body has no Content-Length to refuse up front. After a violation nothing
 * more is parsed or kept, but the rest of the body is still read and discarded (up to
 * DRAIN_LIMIT_BYTES, within the same time bounds) so the client, which is still sending, can read the
 * 4xx answer; cancelling the body would reset the connection instead.
 */
async function pump(
  body: ReadableStream<Uint8Array>,
  parser: busboy.Busboy,
  options: {
    deadline: number;
    idleMs: number;
    stopped: () => boolean;
    onFailure: (error: UploadRefusal) => void;
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
        options.onFailure(
          fail(
            'timeout',
            remaining <= options.idleMs
              ? 'The upload did not complete in time.'
              : 'The upload stalled: no data arrived for too long.',
          ),
        );
        return;
      }
      if (next.done) {
        if (!options.stopped()) parser.end();
        return;
      }
      received += next.value.byteLength;
      if (received > MAX_TICKET_BODY_BYTES) options.onFailure(bodyTooLarge());
      if (options.stopped()) {
        discarded += next.value.byteLength;
        if (discarded > DRAIN_LIMIT_BYTES) return;
        continue;
      }
      options.onChunk(next.value);
      if (!parser.write(next.value)) {
        await new Promise<void>((resolve) => {
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
    }
  } catch {
    // The client went away mid-body.
    options.onFailure(fail('invalid', 'The upload was interrupted.'));
  } finally {
    clearTimeout(timer);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after a time bound: nothing more to do with this body.
    }
  }
}
