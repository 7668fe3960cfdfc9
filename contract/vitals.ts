/**
 * Core Web Vitals from real visitors (issue 43, decision 0037): the metrics kept, their thresholds
 * (web.dev's: good at or under the first, poor above the second), the ranges values are clamped to,
 * the 75th percentile the staff view shows, and what that view receives. No dependencies: the browser
 * bundle, the server and the tests share it.
 */

export const VITAL_METRICS = ['LCP', 'INP', 'CLS', 'TTFB'] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];

export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** Good up to `good`, poor above `poor`; LCP, INP and TTFB in milliseconds, CLS unitless. */
export const VITAL_THRESHOLDS: Record<VitalMetric, { good: number; poor: number }> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  TTFB: { good: 800, poor: 1800 },
};

/** The largest value kept of each metric: a larger one is clamped to it (a minute, or a CLS of 10). */
export const VITAL_MAX: Record<VitalMetric, number> = { LCP: 60_000, INP: 60_000, CLS: 10, TTFB: 60_000 };

/** Where the page sends its vitals (one POST per page, when it is hidden); web/client/vitals-report.ts spells it out (no shared chunk). */
export const VITALS_PATH = '/api/vitals';

export function vitalRating(metric: VitalMetric, value: number): VitalRating {
  const { good, poor } = VITAL_THRESHOLDS[metric];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
}

/** A value within 0..VITAL_MAX of its metric (CLS to 4 decimals, the others to whole milliseconds). */
export function clampVital(metric: VitalMetric, value: number): number {
  const clamped = Math.min(VITAL_MAX[metric], Math.max(0, value));
  return metric === 'CLS' ? Math.round(clamped * 10_000) / 10_000 : Math.round(clamped);
}

/**
 * The 75th percentile of weighted values (a raw event weighs 1; a rolled-up day's p75 weighs its number
 * of events): the smallest value at or above which lies no more than a quarter of the weight, i.e. the
 * nearest-rank percentile CrUX uses. Null for no values.
 */
export function p75(values: ReadonlyArray<{ value: number; weight: number }>): number | null {
  const usable = values.filter((item) => Number.isFinite(item.value) && item.weight > 0).sort((a, b) => a.value - b.value);
  const total = usable.reduce((sum, item) => sum + item.weight, 0);
  if (total === 0) return null;
  const rank = Math.ceil(0.75 * total);
  let seen = 0;
  for (const item of usable) {
    seen += item.weight;
    if (seen >= rank) return item.value;
  }
  return usable.at(-1)?.value ?? null;
}

/** One row of the staff view: a metric's p75 and ratings for a page type, device class or build. */
export interface VitalFigures {
  metric: VitalMetric;
  /** Route template (page type), device class, or build id, by the table it is in. */
  name: string;
  p75: number | null;
  events: number;
  good: number;
  needsImprovement: number;
  poor: number;
}

export interface VitalsReport {
  /** Per page type (route template), every device class together. */
  byRoute: VitalFigures[];
  /** Per build, every page together: a release that made things worse shows. */
  byBuild: VitalFigures[];
  /** Per device class, every page together. */
  byDevice: VitalFigures[];
}
