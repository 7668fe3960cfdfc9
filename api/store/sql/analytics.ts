/**
 * First-party analytics in the database (decision 0032), the same on SQLite and PostgreSQL: raw page
 * views, the day's salt (one row per day: every app server on the store hashes with the same one; the
 * rows of earlier days are deleted as soon as a new day's salt is chosen), the daily roll-ups of views
 * past their keeping time, and quote requests' attribution.
 */
import { sql } from 'kysely';
import { p75, VITAL_METRICS, type VitalMetric, type VitalRating } from '../../../contract/vitals';
import { type AnalyticsRepository, type Conversion, type PageView, type RolledUpViews, type VitalDaily, type VitalEvent, VITALS_READ_LIMIT, type ViewCount, type VisitorDay } from '../store';
import type { SqlDatabase, Tx } from './database';

const DEVICES: ReadonlySet<string> = new Set(['mobile', 'tablet', 'desktop']);

function viewOf(row: { day: string; at: string; route: string; slug: string | null; referrer_host: string | null; utm_source: string | null; utm_medium: string | null; utm_campaign: string | null; device: string; visitor: string | null }): PageView {
  return {
    day: row.day,
    at: row.at,
    route: row.route,
    slug: row.slug,
    referrerHost: row.referrer_host,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    device: DEVICES.has(row.device) ? (row.device as PageView['device']) : 'desktop',
    visitor: row.visitor,
  };
}

function conversionOf(row: { lead_id: string; day: string; landing: string | null; articles: string; utm_source: string | null }): Conversion {
  let articles: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.articles);
    if (Array.isArray(parsed)) articles = parsed.filter((item): item is string => typeof item === 'string');
  } catch {
    articles = [];
  }
  return { leadId: row.lead_id, day: row.day, landing: row.landing, articles, utmSource: row.utm_source };
}

const orNull = (text: string): string | null => (text === '' ? null : text);

const METRICS: ReadonlySet<string> = new Set(VITAL_METRICS);
const RATINGS: ReadonlySet<string> = new Set(['good', 'needs-improvement', 'poor']);
const deviceOf = (text: string): PageView['device'] => (DEVICES.has(text) ? (text as PageView['device']) : 'desktop');

/** Raw vitals events grouped per day, page type, device class, metric and build: each group's p75 and ratings. */
export function vitalsDaily(events: readonly VitalEvent[]): VitalDaily[] {
  const groups = new Map<string, { first: VitalEvent; values: Array<{ value: number; weight: number }>; good: number; needsImprovement: number; poor: number }>();
  for (const event of events) {
    const key = JSON.stringify([event.day, event.route, event.device, event.metric, event.build]);
    const group = groups.get(key) ?? { first: event, values: [], good: 0, needsImprovement: 0, poor: 0 };
    group.values.push({ value: event.value, weight: 1 });
    if (event.rating === 'good') group.good += 1;
    else if (event.rating === 'poor') group.poor += 1;
    else group.needsImprovement += 1;
    groups.set(key, group);
  }
  return [...groups.values()].map(({ first, values, good, needsImprovement, poor }) => ({
    day: first.day,
    route: first.route,
    device: first.device,
    metric: first.metric,
    build: first.build,
    p75: p75(values) ?? 0,
    events: values.length,
    good,
    needsImprovement,
    poor,
  }));
}

function vitalOf(row: { day: string; route: string; device: string; metric: string; value: number | string; rating: string; build: string; attribution: string | null }): VitalEvent {
  return {
    day: row.day,
    route: row.route,
    device: deviceOf(row.device),
    metric: row.metric as VitalMetric,
    value: Number(row.value),
    rating: RATINGS.has(row.rating) ? (row.rating as VitalRating) : 'needs-improvement',
    build: row.build,
    attribution: row.attribution,
  };
}

function vitalDailyOf(row: { day: string; route: string; device: string; metric: string; build: string; p75: number | string; events: number | string; good: number | string; needs_improvement: number | string; poor: number | string }): VitalDaily {
  return {
    day: row.day,
    route: row.route,
    device: deviceOf(row.device),
    metric: row.metric as VitalMetric,
    build: row.build,
    p75: Number(row.p75),
    events: Number(row.events),
    good: Number(row.good),
    needsImprovement: Number(row.needs_improvement),
    poor: Number(row.poor),
  };
}

export class SqlAnalyticsRepository implements AnalyticsRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  async addViews(views: readonly PageView[]): Promise<void> {
    if (views.length === 0) return;
    await this.#database.write('count page views', async (tx) => {
      for (let start = 0; start < views.length; start += 100) {
        const rows = views.slice(start, start + 100).map((view) => ({
          day: view.day,
          at: view.at,
          route: view.route,
          slug: view.slug,
          referrer_host: view.referrerHost,
          utm_source: view.utmSource,
          utm_medium: view.utmMedium,
          utm_campaign: view.utmCampaign,
          device: view.device,
          visitor: view.visitor,
        }));
        await tx.insertInto('analytics_views').values(rows).execute();
      }
    });
  }

  async salt(day: string, candidate: string): Promise<string> {
    return this.#database.write("choose the day's analytics salt", async (tx) => {
      await tx.insertInto('analytics_salts').values({ day, salt: candidate }).onConflict((conflict) => conflict.column('day').doNothing()).execute();
      await tx.deleteFrom('analytics_salts').where('day', '<', day).execute();
      const row = await tx.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
      return row.salt;
    });
  }

  async visit(day: string, visitor: string): Promise<PageView[]> {
    const rows = await this.#database.read("read a visitor's views", (db) => db.selectFrom('analytics_views').selectAll().where('day', '=', day).where('visitor', '=', visitor).orderBy('id').limit(1000).execute());
    return rows.map(viewOf);
  }

  async addConversion(conversion: Conversion): Promise<void> {
    await this.#database.write("record a quote request's attribution", (tx) =>
      tx
        .insertInto('analytics_conversions')
        .values({ lead_id: conversion.leadId, day: conversion.day, landing: conversion.landing, articles: JSON.stringify(conversion.articles), utm_source: conversion.utmSource })
        .onConflict((conflict) => conflict.column('lead_id').doNothing())
        .execute(),
    );
  }

  async conversion(leadId: string): Promise<Conversion | null> {
    const row = await this.#database.read("read a quote request's attribution", (db) => db.selectFrom('analytics_conversions').selectAll().where('lead_id', '=', leadId).executeTakeFirst());
    return row ? conversionOf(row) : null;
  }

  async rollUp(beforeDay: string): Promise<number> {
    return this.#database.write('roll up old page views', async (tx) => {
      const groups = await tx
        .selectFrom('analytics_views')
        .select(['day', 'route', 'slug', 'referrer_host', 'utm_source', 'device', sql<number | string>`count(*)`.as('views')])
        .where('day', '<', beforeDay)
        .groupBy(['day', 'route', 'slug', 'referrer_host', 'utm_source', 'device'])
        .execute();
      if (groups.length === 0) return 0;
      const days = await tx
        .selectFrom('analytics_views')
        .select(['day', sql<number | string>`count(*)`.as('views'), sql<number | string>`count(distinct visitor)`.as('visitors')])
        .where('day', '<', beforeDay)
        .groupBy('day')
        .execute();
      for (const group of groups) {
        await tx
          .insertInto('analytics_daily')
          .values({ day: group.day, route: group.route, slug: group.slug ?? '', referrer_host: group.referrer_host ?? '', utm_source: group.utm_source ?? '', device: group.device, views: Number(group.views) })
          .execute();
      }
      for (const day of days) {
        const views = Number(day.views);
        const visitors = Number(day.visitors);
        await tx
          .insertInto('analytics_days')
          .values({ day: day.day, views, visitors })
          .onConflict((conflict) => conflict.column('day').doUpdateSet({ views: sql`analytics_days.views + ${views}`, visitors: sql`analytics_days.visitors + ${visitors}` }))
          .execute();
      }
      const deleted = await tx.deleteFrom('analytics_views').where('day', '<', beforeDay).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  async counts(fromDay: string, toDay: string): Promise<ViewCount[]> {
    return this.#database.read('read page view counts', async (db) => {
      const raw = await db
        .selectFrom('analytics_views')
        .select(['day', 'route', 'slug', 'referrer_host', 'utm_source', sql<number | string>`count(*)`.as('views')])
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .groupBy(['day', 'route', 'slug', 'referrer_host', 'utm_source'])
        .execute();
      const rolled = await db
        .selectFrom('analytics_daily')
        .select(['day', 'route', 'slug', 'referrer_host', 'utm_source', sql<number | string>`sum(views)`.as('views')])
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .groupBy(['day', 'route', 'slug', 'referrer_host', 'utm_source'])
        .execute();
      return [
        ...raw.map((row) => ({ day: row.day, route: row.route, slug: row.slug, referrerHost: row.referrer_host, utmSource: row.utm_source, views: Number(row.views) })),
        ...rolled.map((row) => ({ day: row.day, route: row.route, slug: orNull(row.slug), referrerHost: orNull(row.referrer_host), utmSource: orNull(row.utm_source), views: Number(row.views) })),
      ];
    });
  }

  async visitors(fromDay: string, toDay: string): Promise<Map<string, number>> {
    return this.#database.read('read daily visitors', async (db) => {
      const raw = await db
        .selectFrom('analytics_views')
        .select(['day', sql<number | string>`count(distinct visitor)`.as('visitors')])
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .groupBy('day')
        .execute();
      const rolled = await db.selectFrom('analytics_days').select(['day', 'visitors']).where('day', '>=', fromDay).where('day', '<=', toDay).execute();
      const byDay = new Map<string, number>();
      for (const row of [...rolled, ...raw]) byDay.set(row.day, (byDay.get(row.day) ?? 0) + Number(row.visitors));
      return byDay;
    });
  }

  async conversions(fromDay: string, toDay: string): Promise<Conversion[]> {
    const rows = await this.#database.read('read quote requests’ attribution', (db) =>
      db.selectFrom('analytics_conversions').selectAll().where('day', '>=', fromDay).where('day', '<=', toDay).orderBy('day').execute(),
    );
    return rows.map(conversionOf);
  }

  async addVitals(events: readonly VitalEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.#database.write('record Core Web Vitals', async (tx) => {
      for (let start = 0; start < events.length; start += 100) {
        const rows = events.slice(start, start + 100).map((event) => ({
          day: event.day,
          route: event.route,
          device: event.device,
          metric: event.metric,
          value: event.value,
          rating: event.rating,
          build: event.build,
          attribution: event.attribution,
        }));
        await tx.insertInto('analytics_vitals').values(rows).execute();
      }
    });
  }

  async vitals(fromDay: string, toDay: string): Promise<{ raw: VitalEvent[]; daily: VitalDaily[] }> {
    return this.#database.read('read Core Web Vitals', async (db) => {
      const raw = await db
        .selectFrom('analytics_vitals')
        .select(['day', 'route', 'device', 'metric', 'value', 'rating', 'build', 'attribution'])
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .orderBy('day', 'desc')
        .limit(VITALS_READ_LIMIT)
        .execute();
      const daily = await db.selectFrom('analytics_vitals_daily').selectAll().where('day', '>=', fromDay).where('day', '<=', toDay).execute();
      return {
        raw: raw
          .filter((row) => METRICS.has(row.metric))
          .map(vitalOf),
        daily: daily
          .filter((row) => METRICS.has(row.metric))
          .map(vitalDailyOf),
      };
    });
  }

  async rollUpVitals(beforeDay: string): Promise<number> {
    return this.#database.write('roll up old Core Web Vitals', async (tx) => {
      const rows = await tx.selectFrom('analytics_vitals').select(['day', 'route', 'device', 'metric', 'value', 'rating', 'build']).where('day', '<', beforeDay).execute();
      if (rows.length === 0) return 0;
      const events: VitalEvent[] = rows
        .filter((row) => METRICS.has(row.metric))
        .map((row) => ({ day: row.day, route: row.route, device: deviceOf(row.device), metric: row.metric as VitalMetric, value: Number(row.value), rating: RATINGS.has(row.rating) ? (row.rating as VitalRating) : 'needs-improvement', build: row.build, attribution: null }));
      await insertVitalsDaily(tx, vitalsDaily(events));
      const deleted = await tx.deleteFrom('analytics_vitals').where('day', '<', beforeDay).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  async rawViews(afterId: number, limit: number): Promise<{ views: PageView[]; lastId: number }> {
    const rows = await this.#database.read('read page views to export', (db) => db.selectFrom('analytics_views').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute());
    return { views: rows.map(viewOf), lastId: rows.at(-1)?.id ?? afterId };
  }

  async rolledUp(): Promise<{ daily: RolledUpViews[]; days: VisitorDay[] }> {
    return this.#database.read('read rolled-up page views', async (db) => {
      const daily = await db.selectFrom('analytics_daily').selectAll().orderBy('day').orderBy('route').orderBy('slug').orderBy('referrer_host').orderBy('utm_source').orderBy('device').execute();
      const days = await db.selectFrom('analytics_days').selectAll().orderBy('day').execute();
      return {
        daily: daily.map((row) => ({ day: row.day, route: row.route, slug: orNull(row.slug), referrerHost: orNull(row.referrer_host), utmSource: orNull(row.utm_source), device: deviceOf(row.device), views: Number(row.views) })),
        days: days.map((row) => ({ day: row.day, views: Number(row.views), visitors: Number(row.visitors) })),
      };
    });
  }

  async rawVitals(afterId: number, limit: number): Promise<{ events: VitalEvent[]; lastId: number }> {
    const rows = await this.#database.read('read Core Web Vitals to export', (db) => db.selectFrom('analytics_vitals').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute());
    return { events: rows.filter((row) => METRICS.has(row.metric)).map(vitalOf), lastId: rows.at(-1)?.id ?? afterId };
  }

  async vitalsRolledUp(): Promise<VitalDaily[]> {
    const rows = await this.#database.read('read rolled-up Core Web Vitals', (db) =>
      db.selectFrom('analytics_vitals_daily').selectAll().orderBy('day').orderBy('route').orderBy('device').orderBy('metric').orderBy('build').execute(),
    );
    return rows.filter((row) => METRICS.has(row.metric)).map(vitalDailyOf);
  }

  async restoreVitalsRolledUp(rows: readonly VitalDaily[]): Promise<void> {
    await this.#database.write('restore rolled-up Core Web Vitals', (tx) => insertVitalsDaily(tx, rows));
  }

  async restoreRolledUp(data: { daily: readonly RolledUpViews[]; days: readonly VisitorDay[] }): Promise<void> {
    await this.#database.write('restore rolled-up page views', async (tx) => {
      for (let start = 0; start < data.daily.length; start += 100) {
        const rows = data.daily.slice(start, start + 100).map((row) => ({ day: row.day, route: row.route, slug: row.slug ?? '', referrer_host: row.referrerHost ?? '', utm_source: row.utmSource ?? '', device: row.device, views: row.views }));
        await tx.insertInto('analytics_daily').values(rows).execute();
      }
      for (const day of data.days) await tx.insertInto('analytics_days').values(day).execute();
    });
  }
}

/** Inserts daily vitals rows, 100 at a time. */
async function insertVitalsDaily(tx: Tx, daily: readonly VitalDaily[]): Promise<void> {
  for (let start = 0; start < daily.length; start += 100) {
    await tx
      .insertInto('analytics_vitals_daily')
      .values(
        daily.slice(start, start + 100).map((group) => ({
          day: group.day,
          route: group.route,
          device: group.device,
          metric: group.metric,
          build: group.build,
          p75: group.p75,
          events: group.events,
          good: group.good,
          needs_improvement: group.needsImprovement,
          poor: group.poor,
        })),
      )
      .execute();
  }
}
