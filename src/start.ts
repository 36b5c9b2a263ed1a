/** Configuration → dependencies → serve → graceful shutdown on SIGTERM/SIGINT (entered through main.js). */
import { describeServices, loadConfigOrExit, secretValues } from './config.ts';
import { createDependencies } from './dependencies.ts';
import { createLogger } from './logger.ts';
import { startServer } from './server.ts';

const config = loadConfigOrExit();

const logger = createLogger(config.logLevel, undefined, secretValues(config), {
  instanceId: config.instanceId,
});
const deps = await createDependencies(config, logger).catch((error: unknown) => {
  // Unreachable server, unknown database, refused password: one line naming the variable.
  const reason = error instanceof Error ? error.message || error.name : String(error);
  console.error(`Database error: DATABASE_URL could not be opened: ${reason.split('\n')[0]}`);
  process.exit(1);
});
if (!config.captcha.secret) logger.warn('CAPTCHA_SECRET is unset: CAPTCHA is not enforced');
const running = await startServer(deps);
logger.info({ port: running.port, services: describeServices(config) }, 'listening');
logger.flush();

let signals = 0;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    signals++;
    if (signals > 1) process.exit(1);
    logger.info({ signal }, 'shutting down');
    running.shutdown().then(
      () => logger.flush(() => process.exit(0)),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush(() => process.exit(1));
      },
    );
  });
}
