import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { UploadRefusal, type UploadRefusalReason } from './errors.ts';
import { sanitizeFileName, withExtension } from './file-names.ts';
import { isPlainText, SNIFF_BYTES } from './file-types.ts';
import { ALLOWED_FILE_TYPES, TEXT_TYPE, UPLOAD_LIMITS } from './limits.ts';

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

/**
 * One upload as its multipart body is parsed: a state machine driven by busboy's events. While
 * `reading`, fields and files are collected and every limit is checked as the bytes arrive; the
 * first broken rule moves it to `refused` for good (later events change nothing, and the caller
 * stops parsing). Once the body has ended, `settle` waits for the files still being checked and
 * answers with the upload or its refusal.
 */
export class Upload {
  #state: { phase: 'reading' } | { phase: 'refused'; refusal: UploadRefusal } = { phase: 'reading' };
  readonly #fileField: string;
  readonly #fields: Record<string, string> = {};
  readonly #files: UploadedFile[] = [];
  /** One per file part: settles when the part has ended and its bytes have been judged. */
  readonly #intakes: Promise<void>[] = [];
  /** Parts seen (empty file inputs included) and files with bytes, which count toward `maxFiles`. */
  readonly #count = { fieldParts: 0, fileParts: 0, files: 0, fileBytes: 0 };

  constructor(fileField: string) {
    this.#fileField = fileField;
  }

  get refused(): boolean {
    return this.#state.phase === 'refused';
  }

  /** Every part busboy reported (it drops some without an event: see multipart-parts.ts). */
  get partsSeen(): number {
    return this.#count.fieldParts + this.#count.fileParts;
  }

  /** The first refusal wins; the upload stays refused. */
  refuse(reason: UploadRefusalReason, message: string): void {
    if (this.#state.phase === 'reading')
      this.#state = { phase: 'refused', refusal: new UploadRefusal(reason, message) };
  }

  /** Wires the parser's events; resolves once it has parsed the whole body (or failed to). */
  listen(parser: busboy.Busboy): Promise<void> {
    parser.on('field', (name, value, info) => this.#field(name, value, info));
    parser.on('file', (name, stream, info) => this.#file(name, stream, info));
    parser.on('filesLimit', () =>
      this.refuse('invalid', `At most ${UPLOAD_LIMITS.maxFileParts} file parts may be sent.`),
    );
    parser.on('fieldsLimit', () =>
      this.refuse('invalid', `At most ${UPLOAD_LIMITS.maxFields} fields may be sent.`),
    );
    parser.on('partsLimit', () => this.refuse('invalid', 'The multipart body has too many parts.'));
    return new Promise<void>((resolve) => {
      parser.on('close', () => resolve());
      parser.on('error', () => {
        this.#malformed();
        resolve();
      });
    });
  }

  /** After the body has been parsed: waits for the files still being checked; throws the refusal, if any. */
  async settle(): Promise<ParsedUpload> {
    if (!this.refused) await Promise.all(this.#intakes);
    if (this.#state.phase === 'refused') throw this.#state.refusal;
    const files = this.#files.sort((a, b) => a.position - b.position);
    return { fields: this.#fields, files: files.map((f, index) => ({ ...f, position: index + 1 })) };
  }

  #malformed(): void {
    this.refuse('invalid', 'The multipart body is malformed or incomplete.');
  }

  #unnamed(): void {
    this.refuse('invalid', `${this.#fileField}: each part must be a file with a file name.`);
  }

  #field(name: string, value: string, info: busboy.FieldInfo): void {
    this.#count.fieldParts++;
    // busboy reads a file part with an empty file name (`filename=""`) as a text field unless it is
    // declared application/octet-stream: its bytes would be lost.
    if (name === this.#fileField) {
      // An empty one has nothing to lose: like an empty file input.
      if (value !== '' || info.valueTruncated) this.#unnamed();
    } else if (info.nameTruncated || info.valueTruncated) {
      this.refuse('invalid', `${name}: the field is too long.`);
    } else if (Object.hasOwn(this.#fields, name)) {
      this.refuse('invalid', `${name}: sent more than once.`);
    } else {
      this.#fields[name] = value;
    }
  }

  #file(name: string, stream: Readable, info: busboy.FileInfo): void {
    const part = ++this.#count.fileParts;
    // A body that ends inside a file part destroys the file stream with busboy's error: without a
    // listener that error is uncaught and takes the process down.
    stream.on('error', () => this.#malformed());
    if (this.refused || name !== this.#fileField) {
      this.refuse('invalid', `Files are only accepted in the field "${this.#fileField}".`);
      stream.resume();
      return;
    }
    const intake = new FileIntake(info);
    stream.on('data', (chunk: Buffer) => {
      if (this.refused) return;
      if (intake.position === 0 && chunk.length > 0) {
        // Declared application/octet-stream, a part without a file name (empty or missing) is a file
        // to busboy, with `filename` undefined: the same rule as for the text-field reading above. A
        // name that busboy's basename emptied (`..`, `dir/`) is '' and gets `attachment-<n>`.
        if (info.filename === undefined) return this.#unnamed();
        intake.position = ++this.#count.files;
        if (this.#count.files > UPLOAD_LIMITS.maxFiles) {
          return this.refuse('invalid', `At most ${UPLOAD_LIMITS.maxFiles} attachments may be sent.`);
        }
      }
      this.#count.fileBytes += chunk.length;
      if (this.#count.fileBytes > UPLOAD_LIMITS.maxTotalFileBytes) {
        return this.refuse(
          'too_large',
          `The attachments together exceed ${UPLOAD_LIMITS.maxTotalFileBytes} bytes.`,
        );
      }
      if (intake.take(chunk) >= SNIFF_BYTES) void this.#sniff(intake);
    });
    stream.on('limit', () => {
      this.refuse('too_large', `${intake.name}: a file may be at most ${UPLOAD_LIMITS.maxFileBytes} bytes.`);
    });
    this.#intakes.push(
      new Promise<void>((resolve) => {
        stream.on('error', () => resolve());
        stream.on('end', () => {
          if (this.refused) return resolve();
          if (intake.size === 0) {
            if (info.filename) {
              const name = sanitizeFileName(info.filename, this.#count.files + 1);
              this.refuse('invalid', `${name}: the file is empty.`);
            } // else: an empty file input of a browser form, ignored
            return resolve();
          }
          void this.#sniff(intake).then(() => {
            this.#keep(intake, part);
            resolve();
          });
        });
      }),
    );
  }

  /** Looks the file's type up once, from its first bytes; a type that is not accepted refuses the upload. */
  #sniff(intake: FileIntake): Promise<void> {
    intake.sniffed ??= fileTypeFromBuffer(intake.bytes().subarray(0, SNIFF_BYTES))
      .catch(() => undefined)
      .then((type) => {
        intake.detected = type?.mime ?? null;
        if (intake.detected !== null && !ALLOWED_FILE_TYPES[intake.detected]) {
          this.refuse('file_type', `${intake.name}: files of type ${intake.detected} are not accepted.`);
        }
      });
    return intake.sniffed;
  }

  /** A whole file whose type is known: kept when it is an accepted type or plain text. */
  #keep(intake: FileIntake, part: number): void {
    if (this.refused) return;
    const bytes = intake.bytes();
    const accepted = intake.detected
      ? { type: intake.detected, extensions: ALLOWED_FILE_TYPES[intake.detected]! }
      : isPlainText(bytes)
        ? { type: TEXT_TYPE.contentType, extensions: TEXT_TYPE.extensions }
        : null;
    if (!accepted) {
      this.refuse('file_type', `${intake.name}: this type of file is not accepted.`);
      return;
    }
    const { filename = '', mimeType } = intake.info;
    this.#files.push({
      position: part, // renumbered 1..n by settle()
      originalName: filename.slice(0, UPLOAD_LIMITS.maxOriginalNameChars),
      filename: withExtension(intake.name, accepted.extensions),
      declaredType: mimeType ? mimeType.slice(0, UPLOAD_LIMITS.maxDeclaredTypeChars) : null,
      contentType: accepted.type,
      bytes,
    });
  }
}

/** One file part's bytes as they arrive, and what is known of it so far. */
class FileIntake {
  readonly info: busboy.FileInfo;
  /** Among the files with bytes, from 1; 0 until the first byte arrives. */
  position = 0;
  size = 0;
  /** The type its magic number names: undefined until looked up, null when none does. */
  detected: string | null | undefined;
  /** The type lookup, started once enough bytes are in or the file has ended. */
  sniffed: Promise<void> | null = null;
  readonly #chunks: Buffer[] = [];

  constructor(info: busboy.FileInfo) {
    this.info = info;
  }

  /** Its sanitised name, for messages and storage. */
  get name(): string {
    return sanitizeFileName(this.info.filename ?? '', this.position);
  }

  /** Keeps a chunk; the bytes in so far. */
  take(chunk: Buffer): number {
    this.size += chunk.length;
    this.#chunks.push(chunk);
    return this.size;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}
