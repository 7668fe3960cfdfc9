/**
 * Rendered answers of the site kept in memory (lru-cache): a page, the RSS feed or a sitemap is
 * rendered once and served from here until what it was made from changes. The generation (the year,
 * which the footer shows; the API's lists: the posts' revision) is part of the key, so a new one makes
 * every older entry unreachable and the LRU drops them; an answer kept with the scopes it was made from
 * (api/store/post-scopes.ts: the posts it shows, the lists it read) is dropped when a change reaches one
 * of them, and only then (decision 0031). Only complete 200 answers to GET are kept, at most MAX_ENTRIES
 * and MAX_BYTES. A page is kept as its UTF-8 bytes and compressed per coding asked for, quickly for
 * the request that rendered it and at the static level once it is asked for again (decision 0041),
 * with an ETag per representation: why this cache compresses rather than leaving it to the mounted
 * koa-compress and @koa/etag is docs/decisions/0004-answer-cache.md (with its measurement).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';

/** The content codings a cached page is kept in besides its plain bytes. */
export type ContentCoding = 'br' | 'gzip';

/** One representation of an answer: its bytes in a content coding, and its (weak) validator. */
export interface Variant {
  body: Buffer;
  etag: string;
}

export interface CachedAnswer {
  /** The answer (HTML, XML or text) as UTF-8 bytes, encoded once: every answer sends these bytes as they are. */
  body: Buffer;
  headers: ReadonlyArray<readonly [string, string]>;
  /** Strong validator in the format koa's etag middleware uses, computed once. */
  etag: string;
  /**
   * The page compressed with `coding`, with its own weak validator (another representation of the page,
   * the same whichever level made its bytes).
   * The first use (the request that rendered it, on a miss) gets it compressed quickly; a later use
   * starts compressing it at the level a static server would use, off the request path in Node's thread
   * pool, and gets the quick one until that is made; from then on every use gets that one (decision
   * 0041). Compressing the home page took milliseconds on every answer before (0004).
   */
  compressed: (coding: ContentCoding) => Variant;
  /** The page at the static level in `coding`: the one being made, or made now if no use started it. */
  compressedFully: (coding: ContentCoding) => Promise<Variant>;
}

/** How hard a coding is applied: quickly for the answer to a miss, at the static level for what is kept. */
export type CompressionLevel = 'quick' | 'static';

/** Brotli quality and gzip level of each: the static ones are decision 0004's. */
export const COMPRESSION_LEVELS: Readonly<Record<CompressionLevel, { brotli: number; gzip: number }>> = {
  quick: { brotli: 2, gzip: 6 },
  static: { brotli: 6, gzip: 9 },
};

/**
 * The smallest brotli window that holds the whole answer (at most brotli's largest, 16 MB): the same
 * compression as the default 4 MB window for any answer it holds, with hash tables sized to the answer
 * rather than to 4 MB, which brotli allocates and clears on every call (decision 0041: a 32 KB post
 * page at quality 6 took a third of the time).
 */
export function brotliWindowBits(length: number): number {
  const { BROTLI_MIN_WINDOW_BITS: min, BROTLI_MAX_WINDOW_BITS: max } = constants;
  // A window of 2^bits holds 2^bits - 16 bytes of history.
  return Math.min(max, Math.max(min, Math.ceil(Math.log2(length + 16))));
}

function brotliOptions(body: Buffer, level: CompressionLevel): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: COMPRESSION_LEVELS[level].brotli,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    },
  };
}

/** `body` in `coding` at `level`, on the calling thread. */
export function compressNow(body: Buffer, coding: ContentCoding, level: CompressionLevel): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: COMPRESSION_LEVELS[level].gzip });
  return brotliCompressSync(body, brotliOptions(body, level));
}

const brotliInPool = promisify(brotliCompress);
const gzipInPool = promisify(gzip);

/** `body` in `coding` at `level` in Node's thread pool: the event loop goes on answering meanwhile. */
function compressInPool(body: Buffer, coding: ContentCoding, level: CompressionLevel): Promise<Buffer> {
  return coding === 'gzip' ? gzipInPool(body, { level: COMPRESSION_LEVELS[level].gzip }) : brotliInPool(body, brotliOptions(body, level));
}

export const MAX_ENTRIES = 500;
/** At most this many bytes of answers (uncompressed) are kept: a sitemap file is about 7 MB. */
export const MAX_BYTES = 96 * 1024 * 1024;

/** How many invalidations are remembered for renders under way (one further behind keeps nothing). */
const INVALIDATIONS_REMEMBERED = 1_000;

/** What a render was made from, and when it started (`AnswerCache.mark()` before it read anything). */
export interface MadeFrom {
  scopes: ReadonlySet<string>;
  since: number;
}

export function strongEtag(body: string | Buffer): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const hash = createHash('sha1').update(bytes).digest('base64').slice(0, 27);
  return `"${bytes.length.toString(16)}-${hash}"`;
}

export class AnswerCache {
  readonly #pages = new LRUCache<string, CachedAnswer>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    sizeCalculation: (page) => Math.max(1, page.body.length),
    dispose: (_page, key) => this.#forget(key),
  });
  /** The keys kept for each scope, and each kept key's scopes. */
  readonly #byScope = new Map<string, Set<string>>();
  readonly #scopesOf = new Map<string, ReadonlySet<string>>();
  /** Invalidations so far, and the latest ones with what they reached (null: everything). */
  #clock = 0;
  readonly #invalidations: Array<{ at: number; scopes: ReadonlySet<string> | null }> = [];
  /** The renders under way, by page and state: what they will keep, or undefined if nothing. */
  readonly #rendering = new Map<string, Promise<CachedAnswer | undefined>>();
  /** Addresses whose last answer was for one visitor alone (the quote form's): nothing to wait for. */
  readonly #personal = new LRUCache<string, true>({ max: MAX_ENTRIES });

  /** `generation` names the state pages are rendered from (posts revision and year). */
  constructor(private readonly generation: () => string) {}

  /**
   * The state answers are rendered from now. Read it before rendering and store the answer under it:
   * a post changed while the answer was being rendered then moves the state past it, and the answer,
   * which may predate the change, is never served for the new state.
   */
  current(): string {
    return this.generation();
  }

  #key(url: string, generation: string): string {
    return `${generation}\n${url}`;
  }

  get(url: string, generation: string = this.generation()): CachedAnswer | undefined {
    return this.#pages.get(this.#key(url, generation));
  }

  set(url: string, page: { text: string; headers: CachedAnswer['headers'] }, generation: string = this.generation()): CachedAnswer {
    const entry = this.#answer(page);
    this.#pages.set(this.#key(url, generation), entry);
    return entry;
  }

  /**
   * Keeps a page made from `made.scopes` until a change reaches one of them; not kept (but still the
   * answer to send) when a change reached one after the render began: the page may predate it.
   */
  setFrom(url: string, page: { text: string; headers: CachedAnswer['headers'] }, generation: string, made: MadeFrom): { answer: CachedAnswer; kept: boolean } {
    const answer = this.#answer(page);
    if (this.#invalidatedSince(made)) return { answer, kept: false };
    const key = this.#key(url, generation);
    this.#pages.set(key, answer);
    // After the set: replacing an entry disposes of the old one and its scopes.
    this.#scopesOf.set(key, made.scopes);
    for (const scope of made.scopes) {
      let keys = this.#byScope.get(scope);
      if (!keys) this.#byScope.set(scope, (keys = new Set()));
      keys.add(key);
    }
    return { answer, kept: true };
  }

  /** A mark to pass back with what a render was made from: read it before the render reads anything. */
  mark(): number {
    return this.#clock;
  }

  /** Drops the answers made from any of `scopes` (null: every answer), now and for renders under way. */
  invalidate(scopes: readonly string[] | null): void {
    this.#clock += 1;
    this.#invalidations.push({ at: this.#clock, scopes: scopes ? new Set(scopes) : null });
    if (this.#invalidations.length > INVALIDATIONS_REMEMBERED) this.#invalidations.shift();
    if (!scopes) {
      this.#pages.clear();
      return;
    }
    for (const scope of scopes) {
      for (const key of [...(this.#byScope.get(scope) ?? [])]) this.#pages.delete(key);
    }
  }

  #invalidatedSince(made: MadeFrom): boolean {
    if (made.since === this.#clock) return false;
    const oldest = this.#invalidations[0]?.at ?? this.#clock + 1;
    // Further back than what is remembered: it may have been reached.
    if (made.since + 1 < oldest) return true;
    return this.#invalidations.some(({ at, scopes }) => at > made.since && (!scopes || [...made.scopes].some((scope) => scopes.has(scope))));
  }

  #forget(key: string): void {
    const scopes = this.#scopesOf.get(key);
    if (!scopes) return;
    this.#scopesOf.delete(key);
    for (const scope of scopes) {
      const keys = this.#byScope.get(scope);
      keys?.delete(key);
      if (keys?.size === 0) this.#byScope.delete(scope);
    }
  }

  #answer(page: { text: string; headers: CachedAnswer['headers'] }): CachedAnswer {
    const body = Buffer.from(page.text, 'utf8');
    const etag = strongEtag(body);
    // Weak (as nginx makes a compressed answer's): the quick and the static bytes are the same page, so a
    // browser holding the quick ones revalidates to a 304 once the static ones are sent.
    const weak = (coding: ContentCoding) => `W/${etag.slice(0, -1)}-${coding}"`;
    const variants = new Map<ContentCoding, Variant>();
    const full = new Map<ContentCoding, Promise<Variant>>();
    const compressedFully = (coding: ContentCoding): Promise<Variant> => {
      let made = full.get(coding);
      if (!made) {
        made = compressInPool(body, coding, 'static').then((bytes) => {
          const variant = { body: bytes, etag: weak(coding) };
          variants.set(coding, variant);
          return variant;
        });
        full.set(coding, made);
      }
      return made;
    };
    const compressed = (coding: ContentCoding): Variant => {
      const variant = variants.get(coding);
      if (variant) {
        // Used again: worth the static level. Should zlib ever refuse (memory), the quick one stays.
        if (!full.has(coding)) compressedFully(coding).catch(() => undefined);
        return variant;
      }
      const quick = { body: compressNow(body, coding, 'quick'), etag: weak(coding) };
      variants.set(coding, quick);
      return quick;
    };
    return { body, headers: page.headers, etag, compressed, compressedFully };
  }

  /**
   * The render of this page for this state already under way, if there is one: the promise of the
   * answer it keeps (undefined when its answer is not one to keep: an error, a page for one visitor).
   * Requests that find it wait for it instead of rendering the same page again: after a write, every
   * request for the home page arriving while it renders used to render it, each for a few milliseconds
   * of the event loop (decision 0025).
   */
  rendering(url: string, generation: string): Promise<CachedAnswer | undefined> | undefined {
    if (this.#personal.has(url)) return undefined;
    return this.#rendering.get(this.#key(url, generation));
  }

  /**
   * Records that this address answered with a page for one visitor (never kept): the next requests for
   * it render at once rather than wait for another's render, which they could not share.
   */
  answeredPersonally(url: string): void {
    this.#personal.set(url, true);
  }

  /**
   * Marks a render of this page for this state as under way; call the function returned once it is
   * over, with the answer kept (`set`'s) or nothing. Later calls of it do nothing.
   */
  startRendering(url: string, generation: string): (kept: CachedAnswer | undefined) => void {
    const key = this.#key(url, generation);
    let settle: (kept: CachedAnswer | undefined) => void = () => undefined;
    this.#rendering.set(key, new Promise((resolve) => (settle = resolve)));
    let done = false;
    return (kept) => {
      if (done) return;
      done = true;
      this.#rendering.delete(key);
      settle(kept);
    };
  }

  get size(): number {
    return this.#pages.size;
  }
}

/** The coding to send a cached page in: brotli when the client takes it, else gzip, else none. */
function preferredCoding(ctx: Context): ContentCoding | undefined {
  if (ctx.acceptsEncodings('br') === 'br') return 'br';
  if (ctx.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}

/** Answers with a cached page: its headers, the representation the client takes and that one's ETag. */
export function sendCached(ctx: Context, page: CachedAnswer): void {
  ctx.status = 200;
  for (const [name, value] of page.headers) ctx.set(name, value);
  const coding = preferredCoding(ctx);
  const variant = coding ? page.compressed(coding) : page;
  ctx.set('ETag', variant.etag);
  ctx.vary('Accept-Encoding');
  if (coding) {
    ctx.compress = false; // already compressed, once
    ctx.set('Content-Encoding', coding);
  }
  // The content type is among the cached headers.
  ctx.body = variant.body;
}
