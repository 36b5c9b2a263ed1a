import type { FeatureModule } from '../contract.ts';
import { prototypeContext, prototypePorts } from './context.ts';
import { prototypePersonalData } from './personal-data.ts';
import { prototypeQueueDefinition } from './queue.ts';
import { prototypeRoutes } from './routes.ts';

/** Prototype generation for eligible leads: triggered, streamed, previewed; PrototypeQueue behind it. */
export const prototypesModule: FeatureModule = {
  name: 'prototypes',
  build(infra) {
    const ports = prototypePorts(infra);
    return {
      routes: prototypeRoutes(ports),
      queues: [prototypeQueueDefinition(() => prototypeContext(ports))],
      personalData: [prototypePersonalData],
    };
  },
};
