import type { Transporter } from 'nodemailer';
import { maskAddresses } from '../../text/address-mention.ts';
import { startOutboundCall } from '../../tracing/outbound.ts';
import { addressList, type MailMessage } from './message.ts';

/** How mail leaves the service: SMTP, or the stored outbox when SMTP_URL is unset. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  readonly from: string;
  /**
   * Sends the message; throws when the server refused it or could not be reached. `refused` lists the
   * recipients the server turned down while accepting the message for the others.
   */
  send(message: MailMessage, options: { messageId: string }): Promise<SendResult>;
}

export interface SendResult {
  messageId: string | null;
  refused: string[];
}

/** An SMTP reply in the 5yz range: permanent (RFC 5321 §4.2.1), so sending again cannot succeed. */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * The server refused the message for its size: `552` (RFC 5321: exceeded storage allocation, what
 * servers answer past their SIZE), enhanced code `5.3.4`, or nodemailer refusing before sending
 * because the server's advertised SIZE is smaller.
 */
export function isMessageTooLarge(error: unknown): boolean {
  const { responseCode, code, message } = (error ?? {}) as {
    responseCode?: unknown;
    code?: unknown;
    message?: unknown;
  };
  const text = typeof message === 'string' ? message : '';
  return responseCode === 552 || /\b5\.3\.4\b/.test(text) || (code === 'EMESSAGE' && /size/i.test(text));
}

export const SMTP_TIMEOUTS = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 } as const;

/** Hosts whose traffic never leaves the machine: credentials may cross them without TLS. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|::1)$/i;

/**
 * nodemailer's options for `smtp://user:pass@host:port` (or `smtps://` for implicit TLS). With
 * credentials, `smtp://` to any host but this machine REQUIRES STARTTLS: nodemailer's default
 * (upgrade when the server offers it) sends the password in clear text to a server, or a
 * man-in-the-middle, that does not offer it. `?requireTLS=false` turns that off for a relay that
 * cannot do TLS.
 */
export function smtpTransportOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const auth = url.username
    ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    : undefined;
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS:
      !secure &&
      auth !== undefined &&
      !LOOPBACK_HOST.test(host) &&
      url.searchParams.get('requireTLS') !== 'false',
    auth,
    connectionTimeout: SMTP_TIMEOUTS.connectionMs,
    greetingTimeout: SMTP_TIMEOUTS.greetingMs,
    socketTimeout: SMTP_TIMEOUTS.socketMs,
  };
}

/** nodemailer over SMTP (see smtpTransportOptions). */
/**
 * A failed SMTP send, without the recipients. nodemailer's error lists the refused addresses
 * (`rejected`, `rejectedErrors`) and its message quotes the server's reply, which often names the
 * address; the queue logs the error and stores its message. This one keeps what retrying and the
 * admin need (nodemailer's code, the reply code, the reply with every address as `<address>`), so a
 * visitor's address never reaches a log line or a job's error.
 */
export class SmtpSendError extends Error {
  override name = 'SmtpSendError';
  /** nodemailer's code (`EENVELOPE`, `ECONNECTION`, `EMESSAGE`, …). */
  readonly code: string | undefined;
  /** The server's reply code (`550`, `552`, …), when it answered. */
  readonly responseCode: number | undefined;

  constructor(error: unknown) {
    const { code, responseCode, message } = (error ?? {}) as Record<string, unknown>;
    super(maskAddresses(String(message ?? error)));
    this.code = typeof code === 'string' ? code : undefined;
    this.responseCode = typeof responseCode === 'number' ? responseCode : undefined;
  }
}

export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp';
  readonly from: string;
  /** nodemailer is loaded only when SMTP is configured (it is ~10 MB of resident memory). */
  readonly #transporter: Promise<Transporter>;

  constructor(smtpUrl: string, from: string) {
    this.from = from;
    const options = smtpTransportOptions(smtpUrl);
    this.#transporter = import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(options),
    );
  }

  async send(message: MailMessage, options: { messageId: string }) {
    const transporter = await this.#transporter;
    // The message carries the trace of the request or job that sends it, as `traceparent`.
    const outbound = startOutboundCall('smtp');
    let info: { rejected?: unknown; messageId?: unknown };
    try {
      info = await this.#sendMail(transporter, message, options.messageId, outbound.headers);
      outbound.end();
    } catch (error) {
      outbound.end({ error });
      throw new SmtpSendError(error);
    }
    // nodemailer succeeds when at least one recipient was accepted and lists the others here.
    const refused = (Array.isArray(info.rejected) ? info.rejected : []).map((r: unknown) =>
      typeof r === 'string' ? r : String((r as { address?: unknown }).address ?? r),
    );
    return { messageId: typeof info.messageId === 'string' ? info.messageId : null, refused };
  }

  #sendMail(
    transporter: Transporter,
    message: MailMessage,
    messageId: string,
    headers: Record<string, string>,
  ) {
    return transporter.sendMail({
      from: this.from,
      to: addressList(message.to),
      cc: addressList(message.cc),
      bcc: addressList(message.bcc),
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId,
      headers,
      attachments: (message.attachments ?? []).map((a) =>
        a.path
          ? { filename: a.filename, contentType: a.contentType, path: a.path }
          : {
              filename: a.filename,
              contentType: a.contentType,
              content: Buffer.from(a.contentBase64 ?? '', 'base64'),
            },
      ),
    });
  }
}

/**
 * The offline default: nothing leaves the machine. The message is already kept in the outbox table
 * (see outbox.ts) with its recipients, subject, text, HTML and attachment metadata for the admin.
 */
export class OutboxTransport implements MailTransport {
  readonly kind = 'outbox';
  readonly from: string;
  constructor(from: string) {
    this.from = from;
  }
  async send(): Promise<SendResult> {
    return { messageId: null, refused: [] };
  }
}

export function createMailTransport(config: { smtpUrl: string | undefined; from: string }): MailTransport {
  return config.smtpUrl ? new SmtpTransport(config.smtpUrl, config.from) : new OutboxTransport(config.from);
}
