/**
 * Slows down guessing at the staff sign-in: after a few failures for one account, or more from one
 * address, each further attempt must wait, and the wait doubles with every failure (up to a cap).
 * A success clears the account's count. Kept in memory: a restart forgets it, which only ever errs
 * towards allowing a real person in; the password hash's cost (decision 0006) still bounds guessing.
 */

export interface ThrottleSettings {
  /** Failures for one account before it must wait. */
  accountFree: number;
  /** Failures from one address (any accounts) before it must wait. */
  ipFree: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = {
  accountFree: 5,
  ipFree: 20,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 60 * 60_000,
};

interface Failures {
  count: number;
  last: number;
}

const MAX_TRACKED = 10_000;

export class SignInThrottle {
  readonly #settings: ThrottleSettings;
  readonly #now: () => number;
  readonly #accounts = new Map<string, Failures>();
  readonly #addresses = new Map<string, Failures>();

  constructor(settings: Partial<ThrottleSettings> = {}, now: () => number = Date.now) {
    this.#settings = { ...DEFAULT_THROTTLE, ...settings };
    this.#now = now;
  }

  /** Seconds to wait before this attempt may be checked, or 0. */
  waitSeconds(account: string, ip: string): number {
    const now = this.#now();
    const wait = Math.max(this.#wait(this.#accounts.get(account), this.#settings.accountFree, now), this.#wait(this.#addresses.get(ip), this.#settings.ipFree, now));
    return Math.ceil(wait / 1000);
  }

  failed(account: string, ip: string): void {
    const now = this.#now();
    this.#count(this.#accounts, account, now);
    this.#count(this.#addresses, ip, now);
  }

  succeeded(account: string): void {
    this.#accounts.delete(account);
  }

  #wait(failures: Failures | undefined, free: number, now: number): number {
    if (!failures || now - failures.last > this.#settings.windowMs || failures.count < free) return 0;
    const delay = Math.min(this.#settings.maxDelayMs, this.#settings.baseDelayMs * 2 ** (failures.count - free));
    return Math.max(0, failures.last + delay - now);
  }

  #count(map: Map<string, Failures>, key: string, now: number): void {
    const current = map.get(key);
    const fresh = !current || now - current.last > this.#settings.windowMs;
    if (fresh && map.size >= MAX_TRACKED) {
      for (const [name, entry] of map) if (now - entry.last > this.#settings.windowMs) map.delete(name);
    }
    map.set(key, { count: fresh ? 1 : current.count + 1, last: now });
  }
}
