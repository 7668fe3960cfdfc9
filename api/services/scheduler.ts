/**
 * Scheduled publishing without an outside scheduler: one timer, set for the earliest scheduled post's
 * time (and at most SCHEDULE_LATENESS_SECONDS ahead, so a clock that jumps is caught up), re-set
 * whenever posts change. On start it publishes at once every post whose time passed while the server
 * was down. The trash is emptied of posts older than its retention on the same timer, once an hour,
 * and posts whose compliance approval ran out are taken off the site (decision 0028).
 */
import { SCHEDULE_LATENESS_SECONDS } from '../../contract/blog';
import type { PostIndexEntry, PostRepository } from '../store/store';
import type { PostService } from './post-service';
import { SerialRuns } from './serial-runs';

export interface SchedulerWork {
  /** Publishes the posts whose time has come; the posts published. */
  publishDue(): Promise<PostIndexEntry[]>;
  /** Purges posts kept in the trash too long; how many. */
  purgeExpired(): Promise<number>;
  /** The earliest time of a scheduled post, or null. */
  nextScheduledAt(): Promise<Date | null>;
  /** Takes posts whose compliance approval ran out off the site (decision 0028); the posts moved. */
  expireApprovals?(): Promise<PostIndexEntry[]>;
}

export interface SchedulerOptions {
  now?: () => Date;
  log?: (line: string) => void;
  onError?: (error: unknown) => void;
}

const MAX_WAIT_MS = SCHEDULE_LATENESS_SECONDS * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export class Scheduler {
  readonly #work: SchedulerWork;
  readonly #now: () => Date;
  readonly #log: (line: string) => void;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  readonly #runs = new SerialRuns(() => this.#tick(), () => this.#stopped);
  #stopped = true;
  #lastPurge = 0;

  constructor(work: SchedulerWork, options: SchedulerOptions = {}) {
    this.#work = work;
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? (() => undefined);
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Publishes what is overdue, then keeps watching; resolves after that first run. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#run();
  }

  /** Posts changed: look again now (a new schedule may be sooner than the timer). */
  poke(): void {
    if (!this.#stopped) void this.#run();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#runs.settled();
  }

  #run(): Promise<void> {
    return this.#runs.run();
  }

  async #tick(): Promise<void> {
    clearTimeout(this.#timer);
    try {
      const published = await this.#work.publishDue();
      for (const post of published) this.#log(`Published the scheduled post "${post.title}" (/blog/${post.slug}), due at ${post.publishedAt ?? 'its time'}.`);
      const now = this.#now().getTime();
      if (now - this.#lastPurge >= PURGE_EVERY_MS) {
        this.#lastPurge = now;
        const purged = await this.#work.purgeExpired();
        if (purged > 0) this.#log(`Purged ${purged} post(s) kept in the trash past their retention.`);
        const expired = (await this.#work.expireApprovals?.()) ?? [];
        for (const post of expired) this.#log(`The compliance approval of "${post.title}" ran out: the post is ${post.status === 'in_review' ? 'back in the review queue' : 'a draft again'}.`);
      }
    } catch (error) {
      this.#onError(error);
    }
    if (this.#stopped) return;
    let wait = MAX_WAIT_MS;
    try {
      const next = await this.#work.nextScheduledAt();
      // A few milliseconds late rather than early: a timer that fires before the time publishes nothing.
      if (next) wait = Math.min(MAX_WAIT_MS, Math.max(0, next.getTime() - this.#now().getTime()) + 5);
    } catch (error) {
      this.#onError(error);
    }
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#run(), wait);
    this.#timer.unref();
  }
}

/** The scheduler of a store's posts, publishing and purging through the post service (built once, api/services/services.ts). */
export function postScheduler(posts: PostService, store: Pick<PostRepository, 'nextScheduledAt'>, options: SchedulerOptions = {}): Scheduler {
  return new Scheduler({ publishDue: () => posts.publishDue(), purgeExpired: () => posts.purgeExpired(), nextScheduledAt: () => store.nextScheduledAt(), expireApprovals: () => posts.expireApprovals() }, options);
}
