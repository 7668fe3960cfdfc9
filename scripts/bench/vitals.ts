/**
 * Vitals (issue 43, decision 0037): page latency while the server ingests Core Web Vitals beacons at
 * 1,000 events a second (250 beacons a second of four metrics each, every one from an address of its
 * own behind a trusted proxy, so none is rate limited and each takes the whole path: checked, clamped,
 * queued, written in the batches of the analytics writer). `GET /faq` is measured alone, then with the
 * beacons arriving; budget: its p99 under 50 ms with them, every beacon answered 204.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import type autocannon from 'autocannon';
import { getOk } from './http';
import { clean, load, type Measure } from './load';
import { copyDataDir, startServer, stop } from './processes';
import { type Budget, fmt, markdownTable, measureCells, type Section, verdict } from './report';

const CONNECTIONS = 10;
const BEACON_CONNECTIONS = 10;
const WARM_UP_SECONDS = 1;
const EVENTS_PER_SECOND = 1_000;
const METRICS_PER_BEACON = 4;
const MAX_P99_MS = 50;

export interface VitalsInput {
  seedDir: string;
  workDir: string;
  seconds: number;
}

/** A beacon from a visitor of the FAQ on a phone: four metrics with their attribution. */
const BEACON = JSON.stringify({
  path: '/faq',
  metrics: [
    { name: 'LCP', value: 2140, target: 'main>h1', loadState: 'complete' },
    { name: 'INP', value: 168, target: 'details>summary.accordion-summary', interaction: 'pointer', loadState: 'complete' },
    { name: 'CLS', value: 0.02, target: 'div.call-bar', loadState: 'dom-content-loaded' },
    { name: 'TTFB', value: 310 },
  ],
});

function beaconRequests(): autocannon.Request[] {
  let visitor = 0;
  return [
    {
      method: 'POST',
      path: '/api/vitals',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148' },
      body: BEACON,
      // A new address for every beacon (a /16 of them: each comes back after 65,536 beacons, minutes later).
      setupRequest: (request) => {
        visitor = (visitor + 1) % 65_536;
        return { ...request, headers: { ...request.headers, 'x-forwarded-for': `10.20.${Math.floor(visitor / 256)}.${visitor % 256}` } };
      },
    },
  ];
}

export async function benchVitals({ seedDir, workDir, seconds }: VitalsInput): Promise<Section> {
  const dataDir = path.join(workDir, 'vitals-data');
  copyDataDir(seedDir, dataDir);
  const site = await startServer('site-vitals', dataDir);
  let alone: Measure;
  let loaded: Measure;
  let beacons: Measure;
  try {
    await getOk(`${site.url}/faq`);
    await load(`${site.url}/faq`, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
    alone = await load(`${site.url}/faq`, { seconds, connections: CONNECTIONS });
    const beaconRate = EVENTS_PER_SECOND / METRICS_PER_BEACON;
    const ingest = load(`${site.url}/api/vitals`, { seconds: seconds + 2 * WARM_UP_SECONDS, connections: BEACON_CONNECTIONS, overallRate: beaconRate, requests: beaconRequests() });
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
    loaded = await load(`${site.url}/faq`, { seconds, connections: CONNECTIONS });
    beacons = await ingest;
  } finally {
    await stop(site.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const events = beacons.rps * METRICS_PER_BEACON;
  const ok = loaded.p99 < MAX_P99_MS && clean(loaded) && clean(beacons) && events >= EVENTS_PER_SECOND * 0.95;
  const budgets: Budget[] = [
    {
      name: `GET /faq p99 under ${MAX_P99_MS} ms while ${fmt(EVENTS_PER_SECOND)} vitals events a second are ingested`,
      ok,
      detail: `p99 ${fmt(loaded.p99, 1)} ms (alone ${fmt(alone.p99, 1)} ms), ${fmt(events)} events/s ingested${clean(beacons) ? '' : `, ${beacons.non2xx} beacons not 204, ${beacons.errors} errors`}`,
    },
  ];
  return {
    heading: 'Core Web Vitals ingest (1,000 posts stored)',
    table: markdownTable(
      ['measured', 'req/s', 'p50 ms', 'p99 ms', 'budget', 'result'],
      [
        ['GET /faq alone', ...measureCells(alone), '-', '-'],
        [`GET /faq with ${fmt(EVENTS_PER_SECOND)} events/s`, ...measureCells(loaded), `p99 < ${MAX_P99_MS} ms`, verdict(ok)],
        [`POST /api/vitals (${METRICS_PER_BEACON} events each)`, ...measureCells(beacons), '-', '-'],
      ],
    ),
    budgets,
    notes: [
      `autocannon: the page with ${fmt(CONNECTIONS)} connections for ${seconds} s after ${WARM_UP_SECONDS} s of warm-up; the beacons at ${fmt(EVENTS_PER_SECOND / METRICS_PER_BEACON)} a second over ${fmt(BEACON_CONNECTIONS)} connections from ${WARM_UP_SECONDS} s before to ${WARM_UP_SECONDS} s after, each from an address of its own (X-Forwarded-For behind TRUST_PROXY=1), so none is rate limited.`,
      'The server writes page views and vitals every 5 s in one transaction each, as a started server does (`site-vitals` in scripts/bench/servers.ts).',
    ],
  };
}
