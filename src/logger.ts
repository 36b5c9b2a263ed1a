import pino, { type Logger } from 'pino';

/** How often buffered log lines are written out when traffic is too light to fill the buffer. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * The service's JSON logger: one object per line on stdout, through an asynchronous buffer (a
 * synchronous write per request line costs more than the request itself under load), flushed every
 * second and on shutdown (`logger.flush()`).
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
): Logger {
  if (!destination) {
    const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => stdout.flush(), FLUSH_INTERVAL_MS).unref();
    destination = stdout;
  }
  if (secrets.length > 0) destination = scrubbing(destination, secrets);
  return pino(
    {
      level,
      base: { service: 'agency-backend' },
      // Epoch milliseconds (pino's default): formatting an ISO date costs a microsecond per line.
      timestamp: pino.stdTimeFunctions.epochTime,
    },
    destination,
  );
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
