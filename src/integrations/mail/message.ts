/** A fully rendered e-mail: what features enqueue and what a transport sends. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The bytes, base64-encoded (small files) … */
  contentBase64?: string;
  /** … or a path on this machine's disk … */
  path?: string;
  /**
   * … or bytes kept in the database (`db/blob-store.ts`, e.g. ticket uploads): the queue payload then
   * carries only the id, and the bytes are read when the message is sent. `size` is for the outbox.
   */
  blobId?: string;
  size?: number;
}

export interface MailMessage {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export function addressList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((a) => a.trim()).filter(Boolean);
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"'`]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[ch]!,
  );
}

/**
 * A header value (subject) on one line: CR/LF and other control characters become spaces, bidi
 * overrides go, and it is cut to `max` UTF-16 units between characters.
 */
export function headerSafe(value: string, max = 200): string {
  const text = value
    .replace(/\p{Cc}+/gu, ' ')
    .replace(BIDI_CONTROLS, '')
    .trim();
  // Cut between characters, never inside a surrogate pair (which would end the line in U+FFFD).
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** Directional overrides and isolates: in a subject they reorder what follows (a spoofing trick). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
