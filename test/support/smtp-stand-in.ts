import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server in-process (tests only): every accepted message is parsed with mailparser. */
export interface SmtpStandIn {
  port: number;
  url: string;
  messages: (ParsedMail & { envelopeTo: string[] })[];
  /** User names of the AUTH attempts it received (with `auth`). */
  logins: string[];
  /** Errors of its connections other than a sender going away (ECONNRESET, EPIPE). */
  connectionErrors: Error[];
  close(): Promise<void>;
}

/**
 * `delayMs` holds each message that long before accepting it (a slow server: the sender's job stays in
 * flight); a message whose sender disconnected meanwhile is not kept (it was never acknowledged).
 * `refuse(address)` true answers that recipient `550 5.1.1 <address>: No such mailbox`, quoting it as Postfix does.
 * `auth` makes it require AUTH with those credentials, offered without TLS (it never offers
 * STARTTLS); `host` is the address it listens on (default 127.0.0.1). `maxBytes` advertises SIZE
 * and answers a larger message `552 5.3.4` once its data is in, as a real server does.
 */
export async function startSmtpStandIn(
  port = 0,
  options: {
    delayMs?: number;
    refuse?: (address: string) => boolean;
    auth?: { user: string; pass: string };
    host?: string;
    maxBytes?: number;
  } = {},
): Promise<SmtpStandIn> {
  const messages: SmtpStandIn['messages'] = [];
  const logins: string[] = [];
  const closed = new Set<string>();
  const connectionErrors: Error[] = [];
  const { auth } = options;
  const server = new SMTPServer({
    authOptional: !auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    onAuth(credentials, _session, callback) {
      logins.push(credentials.username ?? '');
      if (credentials.username === auth?.user && credentials.password === auth?.pass) {
        return callback(null, { user: credentials.username });
      }
      callback(Object.assign(new Error('5.7.8 Authentication failed'), { responseCode: 535 }));
    },
    logger: false,
    ...(options.maxBytes ? { size: options.maxBytes } : {}),
    onRcptTo(address, _session, callback) {
      if (!options.refuse?.(address.address)) return callback();
      callback(
        Object.assign(new Error(`5.1.1 <${address.address}>: No such mailbox`), { responseCode: 550 }),
      );
    },
    onClose(session) {
      if (options.delayMs) closed.add(session.id);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
            const tooLarge = new Error('5.3.4 Message size exceeds fixed maximum message size');
            return callback(Object.assign(tooLarge, { responseCode: 552 }));
          }
          if (options.delayMs) {
            await new Promise((resolve) => setTimeout(resolve, options.delayMs));
            if (closed.has(session.id)) return callback();
          }
          messages.push(Object.assign(parsed, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A sender that goes away within a message (an instance a test kills) is an error of that
  // connection, which smtp-server emits on the server: unheard, it would be an uncaught exception in
  // the test process. The message is not kept (see onClose), which is what the tests check.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') connectionErrors.push(error);
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://${options.host ?? '127.0.0.1'}:${actual}`,
    messages,
    logins,
    connectionErrors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken, then released), for "SMTP is down". */
export async function unusedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
