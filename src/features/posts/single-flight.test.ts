import { describe, expect, it } from 'vitest';
import { SingleFlight } from './single-flight.ts';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('runs the work once for callers that overlap, and forgets the key once it has settled', async () => {
    const flights = new SingleFlight<string>();
    const answer = deferred<string>();
    let runs = 0;
    const work = () => {
      runs++;
      return answer.promise;
    };
    const callers = [flights.join('k', work), flights.join('k', work), flights.join('k', work)];
    expect(flights.size).toBe(1);
    answer.resolve('body');
    expect(await Promise.all(callers)).toEqual(['body', 'body', 'body']);
    expect(runs).toBe(1);
    expect(flights.size).toBe(0);
    expect(await flights.join('k', async () => 'again')).toBe('again');
  });

  it('rejects every caller with the failure, then lets the next caller try again', async () => {
    const flights = new SingleFlight<string>();
    const answer = deferred<string>();
    const callers = [flights.join('k', () => answer.promise), flights.join('k', () => answer.promise)];
    const failure = new Error('upstream down');
    answer.reject(failure);
    for (const caller of callers) await expect(caller).rejects.toBe(failure);
    expect(flights.size).toBe(0);
    expect(await flights.join('k', async () => 'recovered')).toBe('recovered');
  });

  it('forgets the key when the work throws before its first await', async () => {
    const flights = new SingleFlight<string>();
    const throwing = (): Promise<string> => {
      throw new Error('synchronous');
    };
    await expect(flights.join('k', throwing)).rejects.toThrow('synchronous');
    expect(flights.size).toBe(0);
  });

  it('start() supersedes the flight in progress; the older one keeps its callers and no longer owns the key', async () => {
    const flights = new SingleFlight<string>();
    const older = deferred<string>();
    const newer = deferred<string>();
    const owned: boolean[] = [];
    const first = flights.join('k', async (owns) => {
      const value = await older.promise;
      owned.push(owns());
      return value;
    });
    const second = flights.start('k', async (owns) => {
      const value = await newer.promise;
      owned.push(owns());
      return value;
    });
    const third = flights.join('k', () => Promise.resolve('unused'));
    older.resolve('old');
    expect(await first).toBe('old');
    // The older flight settling does not drop the newer one.
    expect(flights.current('k')).toBe(second);
    newer.resolve('new');
    expect(await Promise.all([second, third])).toEqual(['new', 'new']);
    expect(owned).toEqual([false, true]);
    expect(flights.size).toBe(0);
  });
});
