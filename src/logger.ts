import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import { mergeTraceLogFields, traceLogFields } from './tracing/context.ts';

/** How often buffered log lines are written out when traffic is too light to fill the buffer. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * The service's JSON logger: one object per line on stdout, each naming its instance and, within a
 * request or a job, its trace. Written in blocks of about 16 kB (one write per request line costs
 * more than the request itself under load), flushed every second when traffic is too light to fill
 * a block, on shutdown (`logger.flush()`) and when the process exits.
 * A stalled stdout reader blocks the process, exactly as pino's default (one synchronous write per
 * line) would.
 *
 * There is no redaction pass: pino's path redaction cost a fifth of a request's CPU. Instead secrets
 * are never put into log objects (integrations log status codes and messages, never headers or
 * bodies), and a test greps the logs of a full run for every configured secret. The messages of
 * outside services are theirs, though, and some echo the credential they refused (an SMTP server's
 * "535 Invalid login for user:password", a model API's "Incorrect API key provided: …"): so each
 * finished line is checked for the configured secret values (a substring search per secret, far
 * cheaper than path redaction) and any found is replaced by `[redacted]`.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  secrets: readonly string[] = [],
  options: { instanceId?: string } = {},
): Logger {
  if (!destination) {
    const stdout = inBlocks(pino.destination({ dest: 1, sync: true }));
    setInterval(() => stdout.flush(), FLUSH_INTERVAL_MS).unref();
    process.once('exit', () => stdout.flush());
    destination = stdout;
  }
  if (secrets.length > 0) destination = scrubbing(destination, secrets);
  return pino(
    {
      level,
      // Which instance wrote the line: INSTANCE_ID when set, else host name and process id.
      base: options.instanceId
        ? { service: 'agency-backend', instance: options.instanceId }
        : { service: 'agency-backend', pid: process.pid, hostname: hostname() },
      // `traceId` on every line written in a request's or a job's span (src/tracing/context.ts).
      mixin: traceLogFields as () => object,
      mixinMergeStrategy: mergeTraceLogFields,
      // Epoch milliseconds (pino's default): formatting an ISO date costs a microsecond per line.
      timestamp: pino.stdTimeFunctions.epochTime,
    },
    destination,
  );
}

/** Characters of log lines collected before they are written out in one go. */
const BLOCK_CHARS = 16_384;

/**
 * Collects lines and hands them to sonic-boom (which does the writing: partial writes, EAGAIN) one
 * block at a time. sonic-boom's own buffering (`minLength`) re-measures its growing buffer on every
 * line: measured per request line (pino's serialising included), 2.6 µs of CPU in its synchronous
 * mode and 4.4 µs in its asynchronous one (a thread-pool round trip per block), 1.6 µs here.
 */
export function inBlocks(
  target: ReturnType<typeof pino.destination>,
): pino.DestinationStream & { flush(cb?: () => void): void } {
  let lines: string[] = [];
  let size = 0;
  const flush = (cb?: () => void) => {
    if (size > 0) {
      const block = lines.join('');
      lines = [];
      size = 0;
      target.write(block);
    }
    cb?.();
  };
  return {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= BLOCK_CHARS) flush();
    },
    flush,
  };
}

/** Secrets shorter than this are not scrubbed (they would mangle ordinary text; config refuses none). */
const MIN_SCRUBBED_LENGTH = 6;

/** A destination that replaces every secret value (and its JSON- and URL-escaped forms) in each line. */
export function scrubbing(
  destination: pino.DestinationStream,
  secrets: readonly string[],
): pino.DestinationStream {
  const forms = [
    ...new Set(
      secrets
        .filter((s) => s.length >= MIN_SCRUBBED_LENGTH)
        .flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]),
    ),
  ].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return destination;
  const target = destination as pino.DestinationStream & { flush?: (cb?: (error?: Error) => void) => void };
  return {
    write(line: string) {
      for (const form of forms) if (line.includes(form)) line = line.replaceAll(form, '[redacted]');
      target.write(line);
    },
    flush: target.flush ? (cb?: (error?: Error) => void) => target.flush?.(cb) : undefined,
  } as pino.DestinationStream;
}
