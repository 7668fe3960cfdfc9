/**
 * The staff view's figures (/admin/analytics, decision 0032), made from the store's counts: views,
 * visitors and quote requests per day for the last 30 days, articles ranked by views, by quote requests
 * (those whose visitor read the article before sending) and by conversion rate, referrer hosts and UTM
 * sources; and the same as CSV, every cell a spreadsheet would run as a formula kept as text.
 */
import { stringify } from 'csv-stringify/sync';
import { ANALYTICS_REPORT_DAYS, ANALYTICS_TOP, type AnalyticsReport, type ArticleFigures } from '../../contract/analytics';
import { p75, VITAL_METRICS, type VitalFigures, type VitalMetric, type VitalsReport } from '../../contract/vitals';
import type { AnalyticsRepository, LeadRepository, VitalDaily, VitalEvent } from '../store/store';

/** Builds kept apart in the comparison at most (the newest by the last day they sent vitals). */
export const VITALS_BUILDS = 5;

/**
 * p75 and ratings per name (page type, build or device class) and metric, from raw events (each weighs
 * one) and rolled-up days (their p75 weighs their number of events: across days an approximation of the
 * true p75, exact for one day).
 */
function vitalFigures(raw: readonly VitalEvent[], daily: readonly VitalDaily[], nameOf: (item: { route: string; build: string; device: string }) => string): VitalFigures[] {
  const groups = new Map<string, { name: string; metric: VitalMetric; values: Array<{ value: number; weight: number }>; good: number; needsImprovement: number; poor: number }>();
  const groupOf = (name: string, metric: VitalMetric) => {
    const key = JSON.stringify([name, metric]);
    let group = groups.get(key);
    if (!group) {
      group = { name, metric, values: [], good: 0, needsImprovement: 0, poor: 0 };
      groups.set(key, group);
    }
    return group;
  };
  for (const event of raw) {
    const group = groupOf(nameOf(event), event.metric);
    group.values.push({ value: event.value, weight: 1 });
    if (event.rating === 'good') group.good += 1;
    else if (event.rating === 'poor') group.poor += 1;
    else group.needsImprovement += 1;
  }
  for (const day of daily) {
    const group = groupOf(nameOf(day), day.metric);
    group.values.push({ value: day.p75, weight: day.events });
    group.good += day.good;
    group.needsImprovement += day.needsImprovement;
    group.poor += day.poor;
  }
  const order = (metric: VitalMetric) => VITAL_METRICS.indexOf(metric);
  return [...groups.values()]
    .map((group) => ({ metric: group.metric, name: group.name, p75: p75(group.values), events: group.good + group.needsImprovement + group.poor, good: group.good, needsImprovement: group.needsImprovement, poor: group.poor }))
    .sort((a, b) => a.name.localeCompare(b.name) || order(a.metric) - order(b.metric));
}

/** The vitals part of the staff view: per page type, per device class, and the newest builds compared. */
export function vitalsReport(raw: readonly VitalEvent[], daily: readonly VitalDaily[]): VitalsReport {
  const lastDay = new Map<string, string>();
  for (const item of [...raw, ...daily]) if ((lastDay.get(item.build) ?? '') < item.day) lastDay.set(item.build, item.day);
  const builds = new Set([...lastDay].sort((a, b) => b[1].localeCompare(a[1]) || a[0].localeCompare(b[0])).slice(0, VITALS_BUILDS).map(([build]) => build));
  return {
    byRoute: vitalFigures(raw, daily, (item) => item.route),
    byDevice: vitalFigures(raw, daily, (item) => item.device),
    byBuild: vitalFigures(
      raw.filter((event) => builds.has(event.build)),
      daily.filter((day) => builds.has(day.build)),
      (item) => item.build,
    ),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function top<T>(items: readonly T[], by: (item: T) => number, tie: (item: T) => string): T[] {
  return [...items].sort((a, b) => by(b) - by(a) || tie(a).localeCompare(tie(b))).slice(0, ANALYTICS_TOP);
}

export async function analyticsReport(analytics: AnalyticsRepository, leads: LeadRepository, now: Date, days = ANALYTICS_REPORT_DAYS): Promise<AnalyticsReport> {
  const to = dayOf(now.getTime());
  const from = dayOf(now.getTime() - (days - 1) * DAY_MS);
  const [counts, visitors, conversions, requests, vitals] = await Promise.all([analytics.counts(from, to), analytics.visitors(from, to), analytics.conversions(from, to), leads.list({ spam: false }), analytics.vitals(from, to)]);

  const perDay = new Map<string, { views: number; quoteRequests: number }>();
  for (let i = days - 1; i >= 0; i--) perDay.set(dayOf(now.getTime() - i * DAY_MS), { views: 0, quoteRequests: 0 });
  const articleViews = new Map<string, number>();
  const referrers = new Map<string, number>();
  const sources = new Map<string, { views: number; quoteRequests: number }>();
  for (const count of counts) {
    const day = perDay.get(count.day);
    if (day) day.views += count.views;
    if (count.route === '/blog/:slug' && count.slug) articleViews.set(count.slug, (articleViews.get(count.slug) ?? 0) + count.views);
    if (count.referrerHost) referrers.set(count.referrerHost, (referrers.get(count.referrerHost) ?? 0) + count.views);
    if (count.utmSource) {
      const source = sources.get(count.utmSource) ?? { views: 0, quoteRequests: 0 };
      source.views += count.views;
      sources.set(count.utmSource, source);
    }
  }
  for (const lead of requests) {
    const day = perDay.get(lead.createdAt.slice(0, 10));
    if (day) day.quoteRequests += 1;
  }
  const articleQuotes = new Map<string, number>();
  for (const conversion of conversions) {
    for (const slug of conversion.articles) articleQuotes.set(slug, (articleQuotes.get(slug) ?? 0) + 1);
    if (conversion.utmSource) {
      const source = sources.get(conversion.utmSource) ?? { views: 0, quoteRequests: 0 };
      source.quoteRequests += 1;
      sources.set(conversion.utmSource, source);
    }
  }
  const articles: ArticleFigures[] = [...new Set([...articleViews.keys(), ...articleQuotes.keys()])].map((slug) => {
    const views = articleViews.get(slug) ?? 0;
    const quoteRequests = articleQuotes.get(slug) ?? 0;
    return { slug, views, quoteRequests, conversionRate: views > 0 ? Math.min(1, quoteRequests / views) : null };
  });
  const dayList = [...perDay].map(([day, figures]) => ({ day, views: figures.views, visitors: visitors.get(day) ?? 0, quoteRequests: figures.quoteRequests }));
  return {
    from,
    to,
    days: dayList,
    totals: {
      views: dayList.reduce((sum, day) => sum + day.views, 0),
      visitors: dayList.reduce((sum, day) => sum + day.visitors, 0),
      quoteRequests: dayList.reduce((sum, day) => sum + day.quoteRequests, 0),
      attributed: conversions.length,
    },
    topByViews: top(articles.filter((article) => article.views > 0), (article) => article.views, (article) => article.slug),
    topByQuoteRequests: top(articles.filter((article) => article.quoteRequests > 0), (article) => article.quoteRequests, (article) => article.slug),
    topByConversion: top(articles.filter((article) => article.conversionRate !== null && article.quoteRequests > 0), (article) => article.conversionRate ?? 0, (article) => article.slug),
    referrers: top([...referrers].map(([host, views]) => ({ host, views })), (item) => item.views, (item) => item.host),
    sources: top([...sources].map(([source, figures]) => ({ source, ...figures })), (item) => item.views + item.quoteRequests, (item) => item.source),
    vitals: vitalsReport(vitals.raw, vitals.daily),
  };
}

/** A spreadsheet runs a cell that starts with = + - @ tab or CR as a formula: a leading ' keeps it text. */
function cell(value: string | number): string {
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * The report as one CSV: a `section` column (day, article, referrer, source; vitals_page, vitals_device,
 * vitals_build for the Core Web Vitals), then the figures; a vitals row fills the last six columns.
 */
export function analyticsCsv(report: AnalyticsReport): string {
  const rows: Array<Array<string | number>> = [['section', 'name', 'views', 'visitors', 'quote_requests', 'conversion_rate', 'metric', 'p75', 'events', 'good', 'needs_improvement', 'poor']];
  const none = ['', '', '', '', '', ''];
  for (const day of report.days) rows.push(['day', day.day, day.views, day.visitors, day.quoteRequests, '', ...none]);
  const articles = new Map([...report.topByViews, ...report.topByQuoteRequests, ...report.topByConversion].map((article) => [article.slug, article]));
  for (const article of articles.values()) rows.push(['article', article.slug, article.views, '', article.quoteRequests, article.conversionRate === null ? '' : article.conversionRate.toFixed(4), ...none]);
  for (const referrer of report.referrers) rows.push(['referrer', referrer.host, referrer.views, '', '', '', ...none]);
  for (const source of report.sources) rows.push(['source', source.source, source.views, '', source.quoteRequests, '', ...none]);
  const vitals: Array<[string, readonly VitalFigures[]]> = [
    ['vitals_page', report.vitals.byRoute],
    ['vitals_device', report.vitals.byDevice],
    ['vitals_build', report.vitals.byBuild],
  ];
  for (const [section, figures] of vitals) {
    for (const item of figures) rows.push([section, item.name, '', '', '', '', item.metric, item.p75 ?? '', item.events, item.good, item.needsImprovement, item.poor]);
  }
  return stringify(rows.map((row) => row.map(cell)));
}
