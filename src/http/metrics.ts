import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobQueue, JobStatus } from '../queue/job-queue.ts';

/**
 * The process's Prometheus metrics: requests and latency per route, outside-service errors, queue
 * depths (read from the shared database at scrape time, so every instance reports the same depths).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route'>;
  readonly outboundErrors: Counter<'service'>;

  constructor(options: { jobs: JobQueue; queueNames: () => string[] }) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, matched route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method and matched route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.outboundErrors = new Counter({
      name: 'outbound_errors_total',
      help: 'Failed calls to outside services (LLM, CAPTCHA, CRM, SMTP, sales agent, WordPress, PageSpeed)',
      labelNames: ['service'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const name of options.queueNames()) {
          const status = await options.jobs.status(name);
          for (const [state, count] of Object.entries(status.counts) as [JobStatus, number][]) {
            this.set({ queue: name, state }, count);
          }
        }
      },
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }

  recordOutboundError(service: string): void {
    this.outboundErrors.inc({ service });
  }
}
