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

/** A header value (subject) on one line: CR/LF and other control characters become spaces. */
export function headerSafe(value: string, max = 200): string {
  return value
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, max);
}
