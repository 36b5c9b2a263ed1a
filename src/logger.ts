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
 * bodies), and a test greps the logs of a full run for every configured secret.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  if (!destination) {
    const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => stdout.flush(), FLUSH_INTERVAL_MS).unref();
    destination = stdout;
  }
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
