/** The staff view of first-party analytics (/admin/analytics, decision 0032): what the page and its CSV show. */
import type { VitalsReport } from './vitals';

export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  views: number;
  /** Distinct visitor hashes that day (GPC/DNT visitors are not among them). */
  visitors: number;
  /** Quote requests received that day (spam left out). */
  quoteRequests: number;
}

export interface ArticleFigures {
  slug: string;
  views: number;
  /** Quote requests whose visitor read this article before sending it. */
  quoteRequests: number;
  /** quoteRequests / views, or null with no views. */
  conversionRate: number | null;
}

export interface AnalyticsReport {
  from: string;
  to: string;
  days: AnalyticsDay[];
  totals: { views: number; visitors: number; quoteRequests: number; attributed: number };
  topByViews: ArticleFigures[];
  topByQuoteRequests: ArticleFigures[];
  topByConversion: ArticleFigures[];
  referrers: Array<{ host: string; views: number }>;
  sources: Array<{ source: string; views: number; quoteRequests: number }>;
  /** Core Web Vitals from real visitors over the same days (decision 0037). */
  vitals: VitalsReport;
}

/** Days the staff view covers. */
export const ANALYTICS_REPORT_DAYS = 30;
/** Rows of each ranking. */
export const ANALYTICS_TOP = 10;

/** ANALYTICS_RETENTION_DAYS when unset: raw page views are kept this many days, then only daily counts (the privacy policy says so). */
export const ANALYTICS_DEFAULT_RETENTION_DAYS = 30;
