/** Generations running in this process after their request returned, so shutdown and tests can wait. */
export class BackgroundTasks {
  readonly #running = new Set<Promise<unknown>>();

  run(task: Promise<unknown>): void {
    const tracked = task.catch(() => {});
    this.#running.add(tracked);
    void tracked.finally(() => this.#running.delete(tracked));
  }

  get size(): number {
    return this.#running.size;
  }

  /** Resolves once every task started so far (and any they start) has settled. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
