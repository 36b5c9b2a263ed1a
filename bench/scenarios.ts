/**
 * The benchmark scenarios `npm run bench` runs, each against the full app and compared with the bare
 * node:http baseline in the same run. Features add theirs here with the bar their issue sets.
 */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Minimum ratio of the app's req/s to the baseline's. */
  bar?: number;
  /** Extra environment for the app server of this scenario. */
  env?: Record<string, string>;
  /** Runs once against the started server before measuring (e.g. to warm a cache). */
  prepare?: (url: string) => Promise<void>;
}

export const scenarios: Scenario[] = [{ name: 'GET /health', method: 'GET', path: '/health', bar: 0.7 }];
