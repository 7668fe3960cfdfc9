/**
 * Rendered pages kept in memory: a page is rendered once and served from here until a blog post
 * changes (the reader's revision moves) or the year turns (the footer shows it). Only complete 200
 * HTML answers to GET are kept, at most MAX_ENTRIES of them, oldest dropped first.
 */
import { createHash } from 'node:crypto';

export interface CachedPage {
  html: string;
  headers: ReadonlyArray<readonly [string, string]>;
  /** Strong validator in the format koa's etag middleware uses, computed once. */
  etag: string;
}

export const MAX_ENTRIES = 500;

export function strongEtag(body: string): string {
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27);
  return `"${Buffer.byteLength(body, 'utf8').toString(16)}-${hash}"`;
}

export class PageCache {
  readonly #pages = new Map<string, CachedPage>();
  #generation = '';

  constructor(private readonly generation: () => string) {}

  #sync(): void {
    const now = this.generation();
    if (now !== this.#generation) {
      this.#pages.clear();
      this.#generation = now;
    }
  }

  get(key: string): CachedPage | undefined {
    this.#sync();
    return this.#pages.get(key);
  }

  set(key: string, page: Omit<CachedPage, 'etag'>): CachedPage {
    this.#sync();
    const entry = { ...page, etag: strongEtag(page.html) };
    if (this.#pages.size >= MAX_ENTRIES) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    this.#pages.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.#pages.size;
  }
}
