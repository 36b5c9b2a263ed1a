import pino, { type Logger } from 'pino';

/** Header and field names that may carry a secret: pino replaces their values before writing. */
export const REDACTED_PATHS = [
  '*.authorization',
  '*.apiKey',
  '*.api_key',
  '*.api_token',
  '*.secret',
  '*.password',
  '*.recaptchaToken',
  '*["x-chat-api-key"]',
  '*["x-admin-api-key"]',
  '*["x-cache-api-key"]',
];

/** How often buffered log lines are written out when traffic is too light to fill the buffer. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * The service's JSON logger: one object per line, secrets redacted. By default it writes to stdout
 * through an asynchronous buffer: a synchronous write per request line costs more than the request
 * itself under load. The buffer is flushed every second and on shutdown (`logger.flush()`).
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
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}
