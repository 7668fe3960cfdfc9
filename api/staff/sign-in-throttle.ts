/**
 * Slows down guessing at the staff sign-in without letting anyone lock a staff member out (decision
 * 0015). Three counts of failures, each with a few free attempts, then a wait that doubles with every
 * further failure (up to a cap):
 *
 * - one account from one address: someone guessing one person's password from one place;
 * - one address, any accounts: someone trying many accounts from one place;
 * - one account from every address together (a guess spread over many addresses): this one holds only
 *   devices the account has not signed in on, so failures from elsewhere never slow the staff member
 *   on their own device (a signed cookie from an earlier sign-in says which, api/staff/sessions.ts).
 *
 * A success clears its account's count from that address. Kept in memory: a restart forgets it, which
 * only ever errs towards letting a real person in; the password hash's cost (decision 0006) still
 * bounds guessing.
 */

export interface ThrottleSettings {
  /** Failures for one account from one address before that address must wait for that account. */
  pairFree: number;
  /** Failures from one address (any accounts) before it must wait. */
  ipFree: number;
  /** Failures for one account from all addresses before devices it was never signed in on must wait. */
  accountFree: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = {
  pairFree: 5,
  ipFree: 20,
  accountFree: 50,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 60 * 60_000,
};

interface Failures {
  count: number;
  last: number;
}

const MAX_TRACKED = 10_000;

/** Failures counted under one kind of key, forgetting old ones, never more than MAX_TRACKED keys. */
class FailureCount {
  readonly #entries = new Map<string, Failures>();

  constructor(
    private readonly free: number,
    private readonly settings: ThrottleSettings,
  ) {}

  /** Milliseconds `key` must still wait at `now`. */
  wait(key: string, now: number): number {
    const failures = this.#entries.get(key);
    if (!failures || now - failures.last > this.settings.windowMs || failures.count < this.free) return 0;
    const delay = Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** (failures.count - this.free));
    return Math.max(0, failures.last + delay - now);
  }

  add(key: string, now: number): void {
    const current = this.#entries.get(key);
    const fresh = !current || now - current.last > this.settings.windowMs;
    if (fresh && this.#entries.size >= MAX_TRACKED) {
      for (const [name, entry] of this.#entries) if (now - entry.last > this.settings.windowMs) this.#entries.delete(name);
    }
    this.#entries.set(key, { count: fresh ? 1 : current.count + 1, last: now });
  }

  clear(key: string): void {
    this.#entries.delete(key);
  }
}

export class SignInThrottle {
  readonly #now: () => number;
  readonly #pairs: FailureCount;
  readonly #addresses: FailureCount;
  readonly #accounts: FailureCount;

  constructor(settings: Partial<ThrottleSettings> = {}, now: () => number = Date.now) {
    const all = { ...DEFAULT_THROTTLE, ...settings };
    this.#now = now;
    this.#pairs = new FailureCount(all.pairFree, all);
    this.#addresses = new FailureCount(all.ipFree, all);
    this.#accounts = new FailureCount(all.accountFree, all);
  }

  /** Seconds to wait before this attempt may be checked, or 0; `knownDevice`: the account signed in on this device before. */
  waitSeconds(account: string, ip: string, knownDevice = false): number {
    const now = this.#now();
    const wait = Math.max(this.#pairs.wait(pair(account, ip), now), this.#addresses.wait(ip, now), knownDevice ? 0 : this.#accounts.wait(account, now));
    return Math.ceil(wait / 1000);
  }

  failed(account: string, ip: string): void {
    const now = this.#now();
    this.#pairs.add(pair(account, ip), now);
    this.#addresses.add(ip, now);
    this.#accounts.add(account, now);
  }

  succeeded(account: string, ip: string): void {
    this.#pairs.clear(pair(account, ip));
  }
}

function pair(account: string, ip: string): string {
  return `${account}\n${ip}`;
}
