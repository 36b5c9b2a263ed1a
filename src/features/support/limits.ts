/** Limits of the support routes: the schemas, the multipart reader, the docs and the tests import these. */

const MB = 1024 * 1024;

/** `POST /api/support/send` (JSON) field lengths. */
export const SEND_LIMITS = {
  name: 200,
  email: 254,
  company: 200,
  subject: 200,
  message: 5000,
  recaptchaToken: 4096,
} as const;

/** `POST /api/support/tickets` text field lengths (multipart fields). */
export const TICKET_LIMITS = {
  fullName: 200,
  email: 254,
  issueType: 100,
  companyName: 200,
  productUrl: 2048,
  description: 10_000,
  recaptchaToken: 4096,
} as const;

export const URGENCIES = ['low', 'medium', 'high', 'critical'] as const;

/** The multipart upload of a ticket, enforced while the body streams in. */
export const UPLOAD_LIMITS = {
  /**
   * Files (with at least one byte) in the repeated `attachments` field; the next one is refused with
   * 400. A browser's empty file input (no name, no bytes) is ignored and not counted here.
   */
  maxFiles: 5,
  /** File parts of any kind, empty browser inputs included; the next one is refused with 400. */
  maxFileParts: 10,
  /** One file may have exactly this many bytes; one byte more ends the upload with 413. */
  maxFileBytes: 10 * MB,
  /** All files together may have exactly this many bytes; one byte more ends the upload with 413. */
  maxTotalFileBytes: 25 * MB,
  /** Text fields: how many, and the size of one (the description is the longest). */
  maxFields: 20,
  maxFieldBytes: 64 * 1024,
  /** Parts of any kind (fields and files), so a body of thousands of empty parts ends early. */
  maxParts: 40,
  /** Room for the fields and multipart framing on top of the files, in the whole body's bound. */
  framingAllowanceBytes: 1 * MB,
  /** A field's name: a longer one is cut, and the field refused as too long. */
  maxFieldNameBytes: 100,
  /** A stored file name: longer names are shortened (the extension is kept). */
  maxFileNameLength: 120,
  /** The file name as sent and the type the client declared are kept for the record, cut to these. */
  maxOriginalNameChars: 1000,
  maxDeclaredTypeChars: 200,
  /** No byte for this long ends the upload with 408 (a client that stalls mid-body). */
  idleTimeoutMs: 20_000,
} as const;

/**
 * The largest body a ticket may have, every byte counted (preamble and epilogue included): a declared
 * Content-Length over it is refused with 413 before a byte is read, a chunked body once it passes it.
 */
export const MAX_TICKET_BODY_BYTES = UPLOAD_LIMITS.maxTotalFileBytes + UPLOAD_LIMITS.framingAllowanceBytes;

/**
 * After a refusal, at most this much of the rest of a body is read (and dropped, within the same time
 * bounds) so that the client, still sending, can read the answer; past it the read stops.
 */
export const MAX_DRAINED_BYTES = MAX_TICKET_BODY_BYTES;

/**
 * File types a ticket may carry, identified by their bytes (magic numbers, via `file-type`), with the
 * extensions a stored name may keep. Plain text has no magic number: see `TEXT_TYPE`.
 */
export const ALLOWED_FILE_TYPES: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
};

/**
 * Plain text (logs, notes) is accepted when no magic number matches AND the bytes are valid UTF-8
 * without control characters (C0, DEL and C1: U+0000–U+001F, U+007F–U+009F) other than tab, CR, LF
 * and form feed. It is stored and mailed as
 * `text/plain` with a `.txt`/`.log`/`.csv` name whatever it was called (an `.html` or `.svg` file is
 * never served as markup).
 */
export const TEXT_TYPE = { contentType: 'text/plain', extensions: ['txt', 'log', 'csv'] } as const;

/** Per client IP, shared across instances (the `rateLimit` middleware). */
export const SUPPORT_SEND_RATE = { limit: 20, windowMs: 60 * 60 * 1000 } as const;
export const TICKET_RATE = { limit: 20, windowMs: 60 * 60 * 1000 } as const;

/** Ticket ids: `TICKET-YYYYMMDD-XXXXXX` (UTC date, six characters from a CSPRNG). */
export const TICKET_ID_PATTERN = /^TICKET-\d{8}-[A-Z0-9]{6}$/;
export const TICKET_SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
