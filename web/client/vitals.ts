/**
 * Core Web Vitals from real visitors, the part every hydrated page carries (decision 0037): once the page
 * has loaded and the browser is idle, a page outside the staff area and previews draws its lot against
 * RUM_SAMPLE_RATE (the page's `rum-sample-rate` meta); only a page drawn loads the reporter
 * (vitals-report.ts, with the web-vitals attribution build), which sends LCP, INP, CLS and TTFB once,
 * when the page is hidden. The client entry runs only after the visitor's first interaction (pages
 * hydrate on interaction), so nothing of this runs before it, and a lab run (Lighthouse) never sees it.
 */

/** The meta element root.tsx renders RUM_SAMPLE_RATE in (spelt out there too: importing one constant would cost every page a chunk). */
export const RUM_SAMPLE_RATE_META = 'rum-sample-rate';

/** The longest the sampling decision waits for the browser to be idle. */
export const IDLE_TIMEOUT_MS = 5000;

export interface VitalsStartDeps {
  window: Pick<Window, 'addEventListener' | 'setTimeout'> & { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number };
  document: Pick<Document, 'readyState' | 'querySelector'>;
  path: string;
  random: () => number;
  /** Loads and starts the reporter (a dynamic import: its own chunk). */
  report: (path: string) => void;
}

/** Whether this page's vitals are sent: not the staff area or a preview, and the draw is under the rate. */
export function sampled(path: string, rate: number, draw: number): boolean {
  if (/^\/(admin|preview)(\/|$)/.test(path) || /^\/login\/?$/.test(path)) return false;
  return Number.isFinite(rate) && rate > 0 && draw < Math.min(1, rate);
}

export function startVitals(deps: VitalsStartDeps): void {
  const decide = (): void => {
    const meta = deps.document.querySelector<HTMLMetaElement>(`meta[name="${RUM_SAMPLE_RATE_META}"]`);
    if (meta && sampled(deps.path, Number(meta.content), deps.random())) deps.report(deps.path);
  };
  const whenIdle = (): void => {
    // At most IDLE_TIMEOUT_MS: a browser that finds no idle period (a page kept busy) still decides.
    if (deps.window.requestIdleCallback) deps.window.requestIdleCallback(decide, { timeout: IDLE_TIMEOUT_MS });
    else deps.window.setTimeout(decide, 1);
  };
  if (deps.document.readyState === 'complete') whenIdle();
  else deps.window.addEventListener('load', whenIdle, { once: true });
}
