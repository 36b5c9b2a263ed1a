import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { daySalt } from './store.ts';

/**
 * The visitor hash: SHA-256 of (the day's salt, IP, user agent), 128 bits kept. The salt is shared
 * by every instance through the database and deleted the next day, so a hash identifies a visitor
 * for one day only and never leads back to the IP. The day's salt is read once and remembered.
 */
export class VisitorHasher {
  readonly #db: Db;
  readonly #now: () => number;
  #salt: { day: string; salt: Promise<string> } | null = null;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async hash(day: string, ip: string | null, userAgent: string): Promise<string> {
    if (this.#salt?.day !== day) {
      const salt = daySalt(this.#db, day, randomBytes(32).toString('hex'), this.#now());
      this.#salt = { day, salt };
      salt.catch(() => {
        if (this.#salt?.salt === salt) this.#salt = null;
      });
    }
    const salt = await this.#salt.salt;
    return hash('sha256', `${salt}\u0000${ip ?? ''}\u0000${userAgent}`, 'base64url').slice(0, 22);
  }
}
