/**
 * Idempotency-Key claims on creates, the only place that decides them. A claim is `(scope,
 * fingerprint)`: the first create with a scope holds it while its write is under way and, once
 * stored, for `ttlMs` (the expiry is stored with the post, so claims survive a restart). Another
 * create with the same scope and fingerprint gets the first one's post (waiting for its write when
 * needed); with another fingerprint it is a conflict. A failed write drops its claim, and a create
 * waiting on it then runs as if it were the first.
 */
import type { IdempotencyClaim, PostIndexEntry } from '../store';

export type ClaimDecision =
  /** Nobody holds the scope: this create may go ahead (and should hold it). */
  | { kind: 'free' }
  | { kind: 'replayed'; post: PostIndexEntry }
  | { kind: 'conflict' }
  /** The same request is being written: wait for it (and on failure, decide again). */
  | { kind: 'pending'; written: Promise<PostIndexEntry> };

interface PendingClaim {
  postId: string;
  fingerprint: string;
  written: Promise<PostIndexEntry>;
}

export class IdempotencyClaims {
  readonly #now: () => Date;
  readonly #stored = new Map<string, PostIndexEntry>();
  readonly #pending = new Map<string, PendingClaim>();

  constructor(now: () => Date) {
    this.#now = now;
  }

  /** Decides synchronously, so two identical claims racing are told apart by arrival order. */
  decide(claim: IdempotencyClaim): ClaimDecision {
    const stored = this.#stored.get(claim.scope);
    if (stored?.idempotency) {
      if (Date.parse(stored.idempotency.expiresAt) > this.#now().getTime()) {
        return stored.idempotency.fingerprint === claim.fingerprint ? { kind: 'replayed', post: stored } : { kind: 'conflict' };
      }
      this.#stored.delete(claim.scope);
    }
    const pending = this.#pending.get(claim.scope);
    if (pending) return pending.fingerprint === claim.fingerprint ? { kind: 'pending', written: pending.written } : { kind: 'conflict' };
    return { kind: 'free' };
  }

  /** The stored post's expiry for a claim made now. */
  expiresAt(claim: IdempotencyClaim): string {
    return new Date(this.#now().getTime() + claim.ttlMs).toISOString();
  }

  /** Holds a scope while the post claiming it is written. */
  hold(claim: IdempotencyClaim, postId: string, written: Promise<PostIndexEntry>): void {
    this.#pending.set(claim.scope, { postId, fingerprint: claim.fingerprint, written });
  }

  /** Ends the hold of a post whose write has settled; `stored` when it is on disk. */
  settle(entry: PostIndexEntry, stored: boolean): void {
    const scope = entry.idempotency?.scope;
    if (scope === undefined) return;
    if (this.#pending.get(scope)?.postId === entry.id) this.#pending.delete(scope);
    if (stored) this.#stored.set(scope, entry);
  }

  /** Remembers the claims of posts loaded at start-up (expired ones are dropped when next asked). */
  load(entries: readonly PostIndexEntry[]): void {
    for (const entry of entries) if (entry.idempotency) this.#stored.set(entry.idempotency.scope, entry);
  }
}
