/** Counts of the requests the hostile-input suites sent, for their summary line. */
const counts = new Map<string, { total: number; statuses: Map<number, number>; routes: Set<string> }>();

export function record(label: string, req: { method: string; path: string }, status: number) {
  let entry = counts.get(label);
  if (!entry) {
    entry = { total: 0, statuses: new Map(), routes: new Set() };
    counts.set(label, entry);
  }
  entry.total++;
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  entry.routes.add(`${req.method} ${req.path.split('?')[0]?.split('/').slice(0, 4).join('/')}`);
}

export function requestsTried(label: string): number {
  return counts.get(label)?.total ?? 0;
}

/** One line: `hostile input (sqlite): 4321 requests tried; statuses 200×…, 400×…`. */
export function tally(label: string): string {
  const entry = counts.get(label);
  if (!entry) return `hostile input (${label}): no request sent`;
  const statuses = [...entry.statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');
  return `hostile input (${label}): ${entry.total} requests tried; statuses ${statuses}`;
}
