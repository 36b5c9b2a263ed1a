import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { JobQueue, JobStatus } from './queue/job-queue.ts';

/**
 * The process's Prometheus metrics: requests and latency per route, outside-service errors, queue
 * depths (read from the shared database at scrape time, so every instance reports the same depths).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly outboundErrors: Counter<'service'>;
  /**
   * Requests per method, matched route and status, counted in a plain map on the request path and
   * handed to prom-client at scrape time: prom-client's labelled `inc`/`observe` hash and validate
   * the labels on every call, which cost more than the rest of the metrics work per request.
   * Bounded: routes are matched patterns (or "unmatched") and Node's parser accepts only known methods.
   */
  readonly #requests = new RequestSeriesTable();

  constructor(options: { jobs: JobQueue; queueNames: () => string[] }) {
    collectDefaultMetrics({ register: this.registry });
    const requests = this.#requests;
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, matched route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const s of requests.values())
          this.inc({ method: s.method, route: s.route, status: s.status }, s.count);
      },
    });
    this.registry.registerMetric(new RequestDurationHistogram(requests) as unknown as Metric);
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
    const series = this.#requests.get(method, route, status);
    series.count++;
    series.sum += seconds;
    const bucket = DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.buckets[bucket]!++;
  }

  recordOutboundError(service: string): void {
    this.outboundErrors.inc({ service });
  }
}

/** Upper bounds (seconds) of the request latency histogram's buckets. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface RequestSeries {
  method: string;
  route: string;
  status: string;
  count: number;
  /** Seconds, summed. */
  sum: number;
  /** Observations per bucket of DURATION_BUCKETS (not cumulative; +Inf is count minus their sum). */
  buckets: number[];
}

/**
 * The request series, found by route, method and status without building a key string per request
 * (a fresh string is hashed on every lookup; the route and method strings are the route table's and
 * the parser's own, hashed once).
 */
class RequestSeriesTable {
  readonly #byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();
  readonly #all: RequestSeries[] = [];

  get(method: string, route: string, status: number): RequestSeries {
    let byMethod = this.#byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      series = {
        method,
        route,
        status: String(status),
        count: 0,
        sum: 0,
        buckets: DURATION_BUCKETS.map(() => 0),
      };
      byStatus.set(status, series);
      this.#all.push(series);
    }
    return series;
  }

  values(): readonly RequestSeries[] {
    return this.#all;
  }

  clear(): void {
    this.#byRoute.clear();
    this.#all.length = 0;
  }
}

/**
 * `http_request_duration_seconds` by method and matched route, read from the request series at
 * scrape time in the shape prom-client's registry formats (`get()`, as its own Histogram returns).
 */
class RequestDurationHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'HTTP request latency by method and matched route';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series: RequestSeriesTable;

  constructor(series: RequestSeriesTable) {
    this.#series = series;
  }

  async get() {
    const byRoute = new Map<
      string,
      { method: string; route: string; count: number; sum: number; buckets: number[] }
    >();
    for (const s of this.#series.values()) {
      const key = `${s.method} ${s.route}`;
      let total = byRoute.get(key);
      if (!total) {
        total = {
          method: s.method,
          route: s.route,
          count: 0,
          sum: 0,
          buckets: DURATION_BUCKETS.map(() => 0),
        };
        byRoute.set(key, total);
      }
      total.count += s.count;
      total.sum += s.sum;
      s.buckets.forEach((n, i) => {
        total.buckets[i]! += n;
      });
    }
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { method, route, count, sum, buckets } of byRoute.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += buckets[i]!;
        values.push({ labels: { le, method, route }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', method, route }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: { method, route }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { method, route }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** `registry.resetMetrics()`: the series are shared with http_requests_total, which restarts too. */
  reset(): void {
    this.#series.clear();
  }
}
