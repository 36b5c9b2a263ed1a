/**
 * Sums keyed by a rollup row's key, (dimension, period, value), as a fold adds them up before its
 * upserts. Nested maps rather than one map keyed `dimension \0 period \0 value`: each lookup of a
 * concatenated key first flattens and hashes a new string, which made the keys most of a busy fold's
 * JavaScript (bench/analytics-fold.ts); the parts are strings already hashed.
 */
export class RollupSums<Sum> {
  readonly #byDimension = new Map<string, Map<string, Map<string, Sum>>>();

  get(dimension: string, period: string, value: string): Sum | undefined {
    return this.#byDimension.get(dimension)?.get(period)?.get(value);
  }

  set(dimension: string, period: string, value: string, sum: Sum): void {
    let byPeriod = this.#byDimension.get(dimension);
    if (byPeriod === undefined) {
      byPeriod = new Map();
      this.#byDimension.set(dimension, byPeriod);
    }
    let byValue = byPeriod.get(period);
    if (byValue === undefined) {
      byValue = new Map();
      byPeriod.set(period, byValue);
    }
    byValue.set(value, sum);
  }

  /**
   * Every sum in (dimension, period, value) order: the order the upserts lock rows in, the same on
   * every instance, so two folding at once wait for each other and never deadlock.
   */
  sorted(): { dimension: string; period: string; value: string; sum: Sum }[] {
    const rows: { dimension: string; period: string; value: string; sum: Sum }[] = [];
    for (const dimension of [...this.#byDimension.keys()].sort(byCodeUnits)) {
      const byPeriod = this.#byDimension.get(dimension)!;
      for (const period of [...byPeriod.keys()].sort(byCodeUnits)) {
        const byValue = byPeriod.get(period)!;
        for (const value of [...byValue.keys()].sort(byCodeUnits)) {
          rows.push({ dimension, period, value, sum: byValue.get(value)! });
        }
      }
    }
    return rows;
  }
}

/** UTF-16 code-unit order, as `<` compares strings (and `Array.prototype.sort` with no comparator). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
