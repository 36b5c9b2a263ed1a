import type { Logger } from 'pino';
import type { Infrastructure } from '../../infrastructure.ts';
import { prototypeQuota } from '../leads/port.ts';
import type { PrototypeContext } from './generation.ts';
import { leadsForPrototypes } from './leads-adapter.ts';
import { prototypeQueue } from './queue.ts';

/** What prototype generation works with, built once from the infrastructure (the module does). */
export type PrototypePorts = Omit<PrototypeContext, 'limits'>;

export function prototypePorts(
  infra: Pick<
    Infrastructure,
    'config' | 'db' | 'jobs' | 'logger' | 'prototypeGenerator' | 'background' | 'shutdownSignal'
  >,
): PrototypePorts {
  return {
    db: infra.db,
    generator: infra.prototypeGenerator,
    leads: leadsForPrototypes(infra.db, prototypeQuota(infra)),
    queue: prototypeQueue(infra.jobs),
    tasks: infra.background,
    logger: infra.logger,
    publicBaseUrl: infra.config.publicBaseUrl,
    shutdownSignal: infra.shutdownSignal,
  };
}

/** The feature's context for one request or job: the ports with the caller's logger. */
export function prototypeContext(ports: PrototypePorts, logger: Logger = ports.logger): PrototypeContext {
  return { ...ports, logger: logger.child({ component: 'prototypes' }) };
}
