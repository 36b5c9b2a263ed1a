/**
 * In-process single flight: identical upstream fetches that overlap on this instance share one.
 * A flight is kept under its key from the moment it starts until it settles, whatever the outcome
 * (answer, error, or an exception thrown before the first await), so a failure reaches every caller
 * that joined it and the next caller starts a new flight.
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, Promise<T>>();

  /** The flight in progress for `key`, if any. */
  current(key: string): Promise<T> | undefined {
    return this.#flights.get(key);
  }

  /**
   * Starts a new flight for `key` and makes it the one later callers join, even if an older flight
   * is still in progress (the older one keeps its own callers and no longer owns the key). `work` is
   * given `owns()`, true while its flight is still the one registered under `key`.
   */
  start(key: string, work: (owns: () => boolean) => Promise<T>): Promise<T> {
    const owns = () => this.#flights.get(key) === flight;
    // `work` runs a microtask later, so even a synchronous throw settles the registered promise.
    const flight: Promise<T> = Promise.resolve()
      .then(() => work(owns))
      .finally(() => {
        if (owns()) this.#flights.delete(key);
      });
    this.#flights.set(key, flight);
    return flight;
  }

  /** Joins the flight in progress for `key`, else starts one. */
  join(key: string, work: (owns: () => boolean) => Promise<T>): Promise<T> {
    return this.#flights.get(key) ?? this.start(key, work);
  }

  /** How many flights are in progress (for tests and diagnostics). */
  get size(): number {
    return this.#flights.size;
  }
}
