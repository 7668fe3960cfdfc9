/**
 * Load for the benchmark: autocannon against one URL, summarised as a Measure, and the statistics
 * that combine rounds (median). Every request asks for `br, gzip`, as a browser does.
 */
import autocannon from 'autocannon';

export const ACCEPT_ENCODING = 'br, gzip';

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** The requests to send in turn (default: GET of the URL). */
  requests?: autocannon.Request[];
  /** Requests a second over all connections (default: as many as the server answers). */
  overallRate?: number;
}

export async function load(url: string, options: LoadOptions): Promise<Measure> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: { 'accept-encoding': ACCEPT_ENCODING },
    ...(options.requests ? { requests: options.requests } : {}),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Rounds of one measurement as one: the median rate, p50 and p99, every error counted. */
export function combine(rounds: readonly Measure[]): Measure {
  return {
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: median(rounds.map((m) => m.p99)),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    non2xx: rounds.reduce((sum, m) => sum + m.non2xx, 0),
  };
}

/** True when every request of a measurement got a 2xx answer. */
export function clean(measure: Measure): boolean {
  return measure.errors === 0 && measure.non2xx === 0;
}
