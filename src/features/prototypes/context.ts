import type { Dependencies } from '../../dependencies.ts';
import type { PrototypeContext } from './generation.ts';

/** The feature's context, built from the dependencies for one request. */
export function prototypeContext(deps: Dependencies, logger = deps.logger): PrototypeContext {
  return {
    db: deps.db,
    generator: deps.prototypes.generator,
    leads: deps.prototypes.leads,
    queue: deps.prototypes.queue,
    tasks: deps.prototypes.tasks,
    logger: logger.child({ component: 'prototypes' }),
    publicBaseUrl: deps.config.publicBaseUrl,
    shutdownSignal: deps.shutdownSignal,
  };
}
