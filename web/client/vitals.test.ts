import { describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS, sampled, startVitals, type VitalsStartDeps } from './vitals';

function page(options: { path?: string; rate?: string | null; readyState?: DocumentReadyState; draw?: number }) {
  const reported: string[] = [];
  const listeners: Array<() => void> = [];
  const idle: Array<{ callback: () => void; timeout: number | undefined }> = [];
  const deps: VitalsStartDeps = {
    window: {
      addEventListener: ((type: string, listener: () => void) => {
        if (type === 'load') listeners.push(listener);
      }) as Window['addEventListener'],
      setTimeout: (() => 0) as unknown as Window['setTimeout'],
      requestIdleCallback: (callback, opts) => {
        idle.push({ callback, timeout: opts?.timeout });
        return idle.length;
      },
    },
    document: {
      readyState: options.readyState ?? 'complete',
      querySelector: ((selector: string) => (selector === 'meta[name="rum-sample-rate"]' && options.rate !== null ? { content: options.rate ?? '1' } : null)) as Document['querySelector'],
    },
    path: options.path ?? '/faq',
    random: () => options.draw ?? 0.5,
    report: (path) => reported.push(path),
  };
  return { deps, reported, listeners, idle };
}

describe('the vitals sample', () => {
  it('decides only once the page has loaded and the browser is idle (at most 5 s later), never before', () => {
    const loading = page({ readyState: 'loading' });
    startVitals(loading.deps);
    expect(loading.idle).toEqual([]);
    expect(loading.reported).toEqual([]);
    loading.listeners.forEach((listener) => listener());
    expect(loading.idle.map((item) => item.timeout)).toEqual([IDLE_TIMEOUT_MS]);
    expect(loading.reported).toEqual([]);
    loading.idle[0]?.callback();
    expect(loading.reported).toEqual(['/faq']);
  });

  it('loads the reporter on the share of pages the rate says, never on the staff area, previews or the sign-in page', () => {
    expect(sampled('/faq', 0.1, 0.05)).toBe(true);
    expect(sampled('/faq', 0.1, 0.1)).toBe(false);
    expect(sampled('/faq', 0, 0)).toBe(false);
    expect(sampled('/faq', 1, 0.999)).toBe(true);
    expect(sampled('/faq', Number('not a number'), 0)).toBe(false);
    for (const path of ['/admin', '/admin/analytics', '/preview/abc', '/login']) expect(sampled(path, 1, 0)).toBe(false);
    for (const [rate, draw, expected] of [['0.25', 0.2, ['/faq']], ['0.25', 0.3, []], ['0', 0, []]] as const) {
      const sample = page({ rate, draw });
      startVitals(sample.deps);
      sample.idle.forEach((item) => item.callback());
      expect(sample.reported).toEqual(expected);
    }
    const noMeta = page({ rate: null, draw: 0 });
    startVitals(noMeta.deps);
    noMeta.idle.forEach((item) => item.callback());
    expect(noMeta.reported).toEqual([]);
  });
});
