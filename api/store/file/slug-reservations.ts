/**
 * Which slug a new post gets: `base`, else the first free of `base-2`, `base-3` ..., never one the
 * API's own paths use (RESERVED_SLUGS). A slug is taken when a stored post has it or a create whose
 * write is under way has reserved it; a failed write releases its reservation, so the slug is free
 * again for the next create.
 */
import { RESERVED_SLUGS } from '../../../contract/slug';

export class SlugReservations {
  readonly #isStored: (slug: string) => boolean;
  readonly #reserved = new Set<string>();

  constructor(isStored: (slug: string) => boolean) {
    this.#isStored = isStored;
  }

  isTaken(slug: string): boolean {
    return RESERVED_SLUGS.has(slug) || this.#isStored(slug) || this.#reserved.has(slug);
  }

  /** The slug a create with this base would get now. */
  pick(base: string): string {
    if (!this.isTaken(base)) return base;
    for (let n = 2; ; n++) {
      const candidate = `${base}-${n}`;
      if (!this.isTaken(candidate)) return candidate;
    }
  }

  /** Picks and reserves in one step (synchronous, so two creates never get the same slug). */
  reserve(base: string): string {
    const slug = this.pick(base);
    this.#reserved.add(slug);
    return slug;
  }

  /** Reserves exactly this slug (a slug an author chose); false when it is taken. */
  claim(slug: string): boolean {
    if (this.isTaken(slug)) return false;
    this.#reserved.add(slug);
    return true;
  }

  /** Ends a reservation once its write has settled (stored: the index has it now; failed: free again). */
  release(slug: string): void {
    this.#reserved.delete(slug);
  }
}
