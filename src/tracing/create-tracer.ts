import { hostname } from 'node:os';
import { ID_ONLY_TRACER, type Tracer } from './tracer.ts';

/**
 * The service's tracer: with an OTLP endpoint the OpenTelemetry SDK, imported only then (it and the
 * exporter are several megabytes the default path never loads); without one, ids only.
 */
export async function createTracer(options: {
  otlpEndpoint: string | undefined;
  serviceName: string;
  serviceVersion: string;
  instanceId: string | undefined;
}): Promise<Tracer> {
  if (!options.otlpEndpoint) return ID_ONLY_TRACER;
  const { createOtelTracer } = await import('./otel.ts');
  return createOtelTracer({
    endpoint: options.otlpEndpoint,
    serviceName: options.serviceName,
    serviceVersion: options.serviceVersion,
    instanceId: options.instanceId ?? `${hostname()}:${process.pid}`,
  });
}
