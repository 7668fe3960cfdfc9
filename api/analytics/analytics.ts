/**
 * First-party, cookie-free analytics (decision 0032). Page views are counted on the server, once per
 * page answer (a visitor with or without JavaScript is one page load, one count; there is no beacon).
 * A view keeps the route template and slug, the referrer's host, the UTM values, the device class and a
 * visitor hash: SHA-256 of the day's random salt, the address, the User-Agent and the site's host. The
 * salt is chosen per UTC day in the store (one row, shared by every app server, deleted the next day),
 * so yesterday's hashes can never be recomputed. A visitor sending Global Privacy Control or Do Not
 * Track is counted with no hash. Addresses are never stored, nor logged.
 *
 * Counting never slows or fails a page: views wait in memory and are written every few seconds (and at
 * shutdown); a store that refuses is logged and the views are dropped, never a 500. A quote request
 * records its attribution (the visit's landing page, the articles read before it that day by the same
 * hash, the first view's UTM source) through the lead intake's seam; a GPC/DNT visitor gets none.
 * Raw views older than ANALYTICS_RETENTION_DAYS are rolled up into daily counts and deleted, hourly.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { ANALYTICS_DEFAULT_RETENTION_DAYS } from '../../contract/analytics';
import type { AnalyticsRepository, Conversion, PageView, VitalEvent } from '../store/store';
import { deviceClass, isBot, isPrefetch, optedOut, referrerHost, routeOf, utmOf } from './fields';

/** The path of a Referer header (without a trailing slash), or null. */
function refererPath(referer: string): string | null {
  if (!referer) return null;
  try {
    const path = new URL(referer).pathname;
    return path.length > 1 ? path.replace(/\/+$/, '') : path;
  } catch {
    return null;
  }
}

export const DEFAULT_RETENTION_DAYS = ANALYTICS_DEFAULT_RETENTION_DAYS;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Views waiting in memory at most; beyond it (a flood, a store down for long) new ones are dropped. */
const MAX_PENDING = 20_000;
const FLUSH_EVERY_MS = 5_000;
/** This process's own salt, for when the store cannot give the day's. */
const LOCAL_SALT = randomBytes(32).toString('base64url');

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function visitorHash(salt: string, ip: string, userAgent: string, siteHost: string): string {
  return createHash('sha256').update(`${salt}\n${ip}\n${userAgent}\n${siteHost}`, 'utf8').digest('hex');
}

/** ANALYTICS_RETENTION_DAYS: a whole number of days, 1 to 3650; anything else the default. */
export function retentionDays(value: string | undefined): number {
  if (value === undefined || !/^\d{1,4}$/.test(value.trim())) return DEFAULT_RETENTION_DAYS;
  const days = Number(value.trim());
  return days >= 1 && days <= 3650 ? days : DEFAULT_RETENTION_DAYS;
}

/** What the counter needs of a request. */
export interface ViewRequest {
  path: string;
  query: Record<string, string | string[] | undefined>;
  ip: string;
  header: (name: string) => string;
}

interface Pending {
  view: Omit<PageView, 'visitor'>;
  /** The address and User-Agent, kept in memory until the view is written (a few seconds), then only their hash; null: opted out. */
  who: { ip: string; userAgent: string } | null;
}

export interface AnalyticsOptions {
  store: AnalyticsRepository;
  /** The site's host (from SITE_URL), part of every hash. */
  siteHost: string;
  now?: () => Date;
  log?: (line: string) => void;
  retentionDays?: number;
}

export class Analytics {
  readonly #store: AnalyticsRepository;
  readonly #siteHost: string;
  readonly #now: () => Date;
  readonly #log: (line: string) => void;
  readonly #retentionDays: number;
  #pending: Pending[] = [];
  /** Core Web Vitals events waiting to be written (decision 0037), with the views. */
  #pendingVitals: VitalEvent[] = [];
  #droppedVitals = 0;
  #salt: { day: string; salt: string } | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #rollUpTimer: NodeJS.Timeout | undefined;
  #dropped = 0;

  constructor(options: AnalyticsOptions) {
    this.#store = options.store;
    this.#siteHost = options.siteHost;
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? (() => undefined);
    this.#retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  }

  /**
   * The page path this answer counts as a view of, or null when it is not counted. Counted: a GET of
   * an HTML page answered 200, or of a page's data (`/faq.data`, `/_root.data` for `/`: the hydrated
   * app's own navigation) coming from another page (the same page's data again is a revalidation after
   * a form, not a view); never the staff area or previews, robots or prefetches.
   */
  static pageOf(method: string, status: number, type: string, request: ViewRequest): string | null {
    if (method !== 'GET' || status !== 200) return null;
    let path = request.path;
    if (path.endsWith('.data')) {
      if (type !== 'text/x-script') return null;
      path = path === '/_root.data' ? '/' : path.slice(0, -'.data'.length);
      if (refererPath(request.header('Referer')) === path) return null;
    } else if (!/^text\/html\b/.test(type)) {
      return null;
    }
    if (path === '/admin' || path.startsWith('/admin/') || path.startsWith('/preview/')) return null;
    if (isBot(request.header('User-Agent')) || isPrefetch(request.header)) return null;
    return path;
  }

  /** Notes one view (written with the next flush); never throws. */
  note(request: ViewRequest): void {
    if (this.#pending.length >= MAX_PENDING) {
      this.#dropped += 1;
      return;
    }
    const at = this.#now();
    const { route, slug } = routeOf(request.path);
    const utm = utmOf(request.query);
    const userAgent = request.header('User-Agent');
    this.#pending.push({
      view: {
        day: utcDay(at),
        at: at.toISOString(),
        route,
        slug,
        referrerHost: referrerHost(request.header('Referer') || undefined, this.#siteHost),
        utmSource: utm.source,
        utmMedium: utm.medium,
        utmCampaign: utm.campaign,
        device: deviceClass(userAgent),
      },
      who: optedOut(request.header) ? null : { ip: request.ip, userAgent },
    });
  }

  /** Notes Core Web Vitals events (written with the next flush, like views); beyond MAX_PENDING waiting they are dropped. Never throws. */
  noteVitals(events: readonly VitalEvent[]): void {
    if (this.#pendingVitals.length + events.length > MAX_PENDING) {
      this.#droppedVitals += events.length;
      return;
    }
    this.#pendingVitals.push(...events);
  }

  /**
   * A key for an address alone, today (the vitals' rate limit): kept in memory only, unlinkable once the
   * day's salt is gone. A store that cannot give the salt does not fail the beacon: this server's own
   * random salt stands in.
   */
  async addressKey(ip: string): Promise<string> {
    const salt = await this.#saltOf(utcDay(this.#now())).catch(() => LOCAL_SALT);
    return createHash('sha256').update(`${salt}\nvitals\n${ip}`, 'utf8').digest('hex');
  }

  /** The day's salt, from memory or the store (chosen there once for every server). */
  async #saltOf(day: string): Promise<string> {
    if (this.#salt?.day === day) return this.#salt.salt;
    const salt = await this.#store.salt(day, randomBytes(32).toString('base64url'));
    this.#salt = { day, salt };
    return salt;
  }

  /** The visitor hash of this address and User-Agent today. */
  async hashOf(ip: string, userAgent: string, day = utcDay(this.#now())): Promise<string> {
    return visitorHash(await this.#saltOf(day), ip, userAgent, this.#siteHost);
  }

  /** Writes the views waiting; a store refusal is logged (without any visitor's data) and those views are dropped. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    await this.#writeVitals();
    const batch = this.#pending;
    this.#pending = [];
    if (this.#dropped > 0) {
      this.#log(`Analytics: ${this.#dropped} page view(s) not counted (too many waiting to be written).`);
      this.#dropped = 0;
    }
    if (batch.length === 0) return;
    try {
      const views: PageView[] = [];
      for (const item of batch) {
        const visitor = item.who ? visitorHash(await this.#saltOf(item.view.day), item.who.ip, item.who.userAgent, this.#siteHost) : null;
        views.push({ ...item.view, visitor });
      }
      await this.#store.addViews(views);
    } catch (error) {
      this.#log(`Analytics: ${batch.length} page view(s) could not be written and were not counted (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  async #writeVitals(): Promise<void> {
    const batch = this.#pendingVitals;
    this.#pendingVitals = [];
    if (this.#droppedVitals > 0) {
      this.#log(`Analytics: ${this.#droppedVitals} Core Web Vitals event(s) not kept (too many waiting to be written).`);
      this.#droppedVitals = 0;
    }
    if (batch.length === 0) return;
    try {
      await this.#store.addVitals(batch);
    } catch (error) {
      this.#log(`Analytics: ${batch.length} Core Web Vitals event(s) could not be written and were not kept (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  /**
   * The attribution of a quote request sent now by this address and User-Agent: the landing page of
   * the day's visit, the articles read (first read order), the first view's UTM source. Null for a
   * visitor who opted out (GPC/DNT), or who has no view today.
   */
  async attribution(leadId: string, client: { ip: string; userAgent: string; optedOut: boolean }): Promise<Conversion | null> {
    if (client.optedOut) return null;
    await this.flush();
    const day = utcDay(this.#now());
    const views = await this.#store.visit(day, await this.hashOf(client.ip, client.userAgent, day));
    const first = views[0];
    if (!first) return null;
    const articles: string[] = [];
    for (const view of views) if (view.route === '/blog/:slug' && view.slug && !articles.includes(view.slug)) articles.push(view.slug);
    const landing = first.route === '/blog/:slug' || first.route === '/blog/category/:slug' ? first.route.replace(':slug', first.slug ?? '') : first.route;
    return { leadId, day, landing, articles: articles.slice(0, 50), utmSource: views.find((view) => view.utmSource)?.utmSource ?? null };
  }

  /** Records a quote request's attribution; a failure is logged by the lead's id only, never fails the request. */
  async attribute(leadId: string, client: { ip: string; userAgent: string; optedOut: boolean }): Promise<void> {
    try {
      const conversion = await this.attribution(leadId, client);
      if (conversion) await this.#store.addConversion(conversion);
    } catch (error) {
      this.#log(`Analytics: quote request ${leadId} has no attribution (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  /** Rolls raw views past the keeping time up into daily counts and deletes them; how many went. */
  async rollUp(): Promise<number> {
    await this.flush();
    const cutoff = utcDay(new Date(this.#now().getTime() - this.#retentionDays * DAY_MS));
    const count = await this.#store.rollUp(cutoff);
    if (count > 0) this.#log(`Analytics: ${count} page view(s) older than ${this.#retentionDays} days rolled up into daily counts and deleted.`);
    const vitals = await this.#store.rollUpVitals(cutoff);
    if (vitals > 0) this.#log(`Analytics: ${vitals} Core Web Vitals event(s) older than ${this.#retentionDays} days rolled up into daily 75th percentiles and deleted.`);
    return count;
  }

  /** Writes every few seconds and rolls up hourly (and once now). */
  start(options: { rollUp?: boolean } = {}): void {
    this.stop();
    this.#timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.#timer.unref();
    if (options.rollUp !== false) {
      const run = () => void this.rollUp().catch((error: unknown) => this.#log(`Analytics: rolling up old page views failed (${error instanceof Error ? error.message : String(error)}).`));
      run();
      this.#rollUpTimer = setInterval(run, 60 * 60 * 1000);
      this.#rollUpTimer.unref();
    }
  }

  /** Stops the timers; the views waiting are written (call at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    clearInterval(this.#rollUpTimer);
    this.#timer = undefined;
    this.#rollUpTimer = undefined;
    await this.flush();
  }
}

/** Koa middleware around the site renderer: counts the page answers it gives (after they are made, never delaying them). */
export function pageViewCounter(analytics: Analytics): Middleware {
  return async (ctx: Context, next) => {
    await next();
    try {
      const request: ViewRequest = { path: ctx.path, query: ctx.query, ip: ctx.ip, header: (name) => ctx.get(name) };
      const page = Analytics.pageOf(ctx.method, ctx.status, ctx.response.type, request);
      if (page !== null) analytics.note({ ...request, path: page });
    } catch {
      // Counting is never a reason for a page to fail.
    }
  };
}
