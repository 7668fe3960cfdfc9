/**
 * The Core Web Vitals reporter (decision 0037), its own chunk, loaded only on a sampled page once it is
 * idle (vitals.ts): the web-vitals attribution build watches LCP, INP, CLS and TTFB (each value kept as
 * it changes), and the page sends what it has once, when it is hidden, with `navigator.sendBeacon` to
 * this site (a text/plain JSON body, no cookie, no identifier): the page path, each metric's value and
 * its attribution (the LCP element, the INP target and interaction type, the load state).
 */
import { onCLS, onINP, onLCP, onTTFB } from 'web-vitals/attribution';
import { VITALS_PATH } from '../../contract/vitals';

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
  const send = (event: Event): void => {
    if (sent || (event.type === 'visibilitychange' && document.visibilityState !== 'hidden') || found.size === 0) return;
    sent = true;
    navigator.sendBeacon(VITALS_PATH, JSON.stringify({ path, metrics: [...found.values()] }));
  };
  // On the document, not the window: web-vitals finishes its values in window capture listeners, which
  // run before these whatever the order they were added in.
  document.addEventListener('visibilitychange', send);
  window.addEventListener('pagehide', send);
}
