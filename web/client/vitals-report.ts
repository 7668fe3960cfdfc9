/**
 * The Core Web Vitals reporter (decision 0037), its own chunk, loaded only on a sampled page once it is
 * idle (vitals.ts): the web-vitals attribution build watches LCP, INP, CLS and TTFB (each value kept as
 * it changes), and the page sends what it has once, when it is first hidden (switched away from, closed or
 * left: visibilitychange), with `navigator.sendBeacon` to
 * this site (a text/plain JSON body, no cookie, no identifier): the page path, each metric's value and
 * its attribution (the LCP element, the INP target and interaction type, the load state).
 */
import { onCLS, onINP, onLCP, onTTFB } from 'web-vitals/attribution';

/** contract/vitals.ts VITALS_PATH, spelt out: importing it would make a chunk shared with the staff view. */
const VITALS_PATH = '/api/vitals';

interface Sent {
  name: string;
  value: number;
  target?: string;
  interaction?: string;
  loadState?: string;
}

export function reportVitals(path: string): void {
  const found = new Map<string, Sent>();
  const keep = (item: Sent): void => {
    found.set(item.name, Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined)) as unknown as Sent);
  };
  onLCP((metric) => keep({ name: 'LCP', value: metric.value, target: metric.attribution.target }), { reportAllChanges: true });
  onINP((metric) => keep({ name: 'INP', value: metric.value, target: metric.attribution.interactionTarget, interaction: metric.attribution.interactionType, loadState: metric.attribution.loadState }), { reportAllChanges: true });
  onCLS((metric) => keep({ name: 'CLS', value: metric.value, target: metric.attribution.largestShiftTarget, loadState: metric.attribution.loadState }), { reportAllChanges: true });
  onTTFB((metric) => keep({ name: 'TTFB', value: metric.value }), { reportAllChanges: true });
  let sent = false;
  const send = (): void => {
    if (sent || document.visibilityState !== 'hidden' || found.size === 0) return;
    sent = true;
    navigator.sendBeacon(VITALS_PATH, JSON.stringify({ path, metrics: [...found.values()] }));
  };
  // On visibilitychange, which every browser in use fires when a page is hidden, closed or left; not on
  // pagehide, which comes before it when a page is left, while web-vitals has not finished its values
  // (the INP of the tap that left the page, above all). On the document, not the window: web-vitals
  // finishes its values in window capture listeners, which run before this one whatever the order.
  document.addEventListener('visibilitychange', send);
  // Marks the page as measured (tests wait for it before the interaction they compare).
  document.documentElement.dataset.vitals = 'watching';
}
