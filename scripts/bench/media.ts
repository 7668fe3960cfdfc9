/**
 * Image uploads (POST /api/media): the time a 3 MB photo takes from the request to the 201 (checked,
 * decoded once, re-encoded at 480/960/1600 as WebP, AVIF and JPEG, stored durably), as seconds per
 * upload and MB/s, against the same work done by MediaService in the bench process (no HTTP, no
 * server process) measured in the same run; and the bytes the variants take against the upload.
 *
 * Then memory under a burst (issue 35): 50 different 2400 x 1800 photos sent at once to a fresh
 * server, each sent again after its Retry-After when the server answers 503 media_busy, until all 50 are
 * stored; the server's resident memory (VmRSS) sampled throughout, and again a minute after the last.
 * Budget: at most 600 MB at the peak, under 300 MB a minute later.
 *
 * The photos are generated: 3000 x 2000, smooth colour fields, detail at a few pixels' scale (random
 * values enlarged with a cubic filter: texture that survives scaling down, as a real scene's does)
 * and per-pixel noise like a camera's, saved as JPEG at the quality that brings each to about 3 MB; each upload is a photo of its own (the
 * same bytes again would be answered from the store without re-encoding).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaResponse } from '../../contract/media';
import { MediaService } from '../../api/services/media';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { residentBytes, startServer, stop } from './processes';
import { fmt, kb, markdownTable, mb, percent, type Section, seconds, verdict } from './report';

const WIDTH = 3000;
const HEIGHT = 2000;
/** The burst: this many photos of BURST_WIDTH x BURST_HEIGHT at once. */
const BURST = 50;
const BURST_WIDTH = 2400;
const BURST_HEIGHT = 1800;
const BURST_PEAK_BUDGET = 600 * 2 ** 20;
const BURST_AFTER_BUDGET = 300 * 2 ** 20;
const BURST_SETTLE_MS = 60_000;
const SAMPLE_MS = 50;
/** The size the photos are made near. */
const TARGET_BYTES = 3 * 1024 * 1024;
/** Measured uploads per side (after one unmeasured upload each). */
const UPLOADS = 3;

interface Size {
  width: number;
  height: number;
}

/** Detail at a scale of a few pixels: random values at a quarter of the size, enlarged with a cubic filter. */
async function texture(seed: number, { width, height }: Size): Promise<Buffer> {
  const small = Buffer.alloc((width / 4) * (height / 4) * 3);
  let state = seed * 40_503 + 7;
  for (let i = 0; i < small.length; i++) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    small[i] = state % 256;
  }
  return sharp(small, { raw: { width: width / 4, height: height / 4, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
}

/** A photo-like picture's pixels: colour fields that change slowly, detail, and sensor-like noise; `seed` makes each different. */
async function photoPixels(seed: number, size: Size): Promise<Buffer> {
  const { width, height } = size;
  const detail = await texture(seed, size);
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2_654_435_761;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      const at = (y * width + x) * 3;
      const noise = (state % 21) - 10 + ((detail[at] ?? 128) - 128) * 0.45;
      pixels[at] = Math.max(0, Math.min(255, 110 + 80 * Math.sin(x / 170 + seed) + 30 * Math.cos(y / 60) + noise));
      pixels[at + 1] = Math.max(0, Math.min(255, 120 + 70 * Math.cos(y / 140 + seed) + 20 * Math.sin(x / 45) + noise));
      pixels[at + 2] = Math.max(0, Math.min(255, 60 + ((x + y) * 150) / (width + height) + noise));
    }
  }
  return pixels;
}

/** A JPEG photo of about `targetBytes`: the lowest quality from 85 up that reaches it. */
async function photo(seed: number, size: Size = { width: WIDTH, height: HEIGHT }, targetBytes = TARGET_BYTES): Promise<Buffer> {
  const pixels = await photoPixels(seed, size);
  let jpeg = Buffer.alloc(0);
  for (let quality = 85; quality <= 98; quality += 1) {
    jpeg = await sharp(pixels, { raw: { width: size.width, height: size.height, channels: 3 } }).jpeg({ quality }).toBuffer();
    if (jpeg.length >= targetBytes * 0.95) break;
  }
  return jpeg;
}

interface Burst {
  rssBefore: number;
  peakRss: number;
  rssAfter: number;
  busyAnswers: number;
  seconds: number;
  photoBytes: number;
}

/**
 * BURST photos at once to a fresh server, each sent again after its Retry-After while the answer is
 * 503 media_busy; the server's memory sampled from before the burst to a minute after its last 201.
 */
async function burst(workDir: string): Promise<Burst> {
  const photos: Buffer[] = [];
  // Made a few at a time: fifty photos' pixels at once would take the bench's own memory past a gigabyte.
  for (let i = 0; i < BURST; i += 5) photos.push(...(await Promise.all(Array.from({ length: 5 }, (_, j) => photo(1000 + i + j, { width: BURST_WIDTH, height: BURST_HEIGHT }, 1.8 * 2 ** 20)))));
  const dir = path.join(workDir, 'media-burst');
  mkdirSync(dir, { recursive: true });
  const server = await startServer('site', dir);
  try {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rssBefore = residentBytes(pid);
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, residentBytes(pid));
    }, SAMPLE_MS);
    let busyAnswers = 0;
    const started = performance.now();
    try {
      await Promise.all(
        photos.map(async (bytes) => {
          for (;;) {
            const response = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${server.key ?? ''}`, 'content-type': 'image/jpeg' }, body: new Uint8Array(bytes) });
            const text = await response.text();
            if (response.status === 201) return;
            if (response.status !== 503) throw new Error(`POST /api/media answered ${response.status}: ${text.slice(0, 300)}`);
            busyAnswers += 1;
            await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, BURST_SETTLE_MS));
    return { rssBefore, peakRss, rssAfter: residentBytes(pid), busyAnswers, seconds, photoBytes: median(photos.map((bytes) => bytes.length)) };
  } finally {
    await stop(server.child);
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function uploadOverHttp(url: string, apiKey: string, bytes: Buffer): Promise<{ ms: number; media: MediaResponse }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'image/jpeg' }, body: new Uint8Array(bytes) });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 201) throw new Error(`POST /api/media answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, media: JSON.parse(text) as MediaResponse };
}

/** The baseline: MediaService.upload on the SQLite store of a data directory, in this process. */
async function uploadInProcess(dataDir: string, photos: readonly Buffer[]): Promise<number[]> {
  const store = await openSqliteStore(dataDir);
  try {
    const service = new MediaService(store, { maxBytes: 10 * 1024 * 1024 });
    const times: number[] = [];
    for (const [i, bytes] of photos.entries()) {
      const started = performance.now();
      const outcome = await service.upload(bytes, { owner: 'bench', keyId: null });
      if (!outcome.created) throw new Error('the baseline photo was stored before');
      if (i > 0) times.push(performance.now() - started);
    }
    return times;
  } finally {
    await store.close();
  }
}

export async function benchMedia(options: { workDir: string }): Promise<Section> {
  const photos = await Promise.all(Array.from({ length: 2 * (UPLOADS + 1) }, (_, i) => photo(i + 1)));
  const ours = photos.slice(0, UPLOADS + 1);
  const baselinePhotos = photos.slice(UPLOADS + 1);
  const siteDir = path.join(options.workDir, 'media-site');
  const baselineDir = path.join(options.workDir, 'media-baseline');
  mkdirSync(siteDir, { recursive: true });
  mkdirSync(baselineDir, { recursive: true });

  const server = await startServer('site', siteDir);
  const uploads: Array<{ ms: number; media: MediaResponse; bytes: number }> = [];
  try {
    for (const [i, bytes] of ours.entries()) {
      const result = await uploadOverHttp(server.url, server.key ?? '', bytes);
      if (i > 0) uploads.push({ ...result, bytes: bytes.length });
    }
  } finally {
    await stop(server.child);
  }
  const baseline = await uploadInProcess(baselineDir, baselinePhotos);
  const heavy = await burst(options.workDir);
  const burstOk = heavy.peakRss <= BURST_PEAK_BUDGET && heavy.rssAfter < BURST_AFTER_BUDGET;

  const oursMs = median(uploads.map((upload) => upload.ms));
  const baselineMs = median(baseline);
  const uploadBytes = median(uploads.map((upload) => upload.bytes));
  const webp960 = median(uploads.map((upload) => upload.media.variants.find((variant) => variant.type === 'image/webp' && variant.width === 960)?.bytes ?? 0));
  const stored = median(uploads.map((upload) => upload.media.stored_bytes));
  const variants = uploads[0]?.media.variants ?? [];
  const mbPerSecond = (bytes: number, ms: number) => bytes / 2 ** 20 / (ms / 1000);

  const table = markdownTable(
    ['scenario', 'upload', 'ours per upload', 'ours MB/s', 'baseline per upload', 'baseline MB/s', 'ratio', '960 WebP vs upload', 'all variants vs upload', 'budget', 'result'],
    [
      [
        `POST /api/media, ${WIDTH} x ${HEIGHT} JPEG photo (median of ${UPLOADS})`,
        kb(uploadBytes),
        seconds(oursMs),
        fmt(mbPerSecond(uploadBytes, oursMs), 2),
        seconds(baselineMs),
        fmt(mbPerSecond(uploadBytes, baselineMs), 2),
        percent(baselineMs / oursMs),
        `${kb(webp960)} (${percent(webp960 / uploadBytes)}, saves ${percent(1 - webp960 / uploadBytes)})`,
        `${kb(stored)} (${percent(stored / uploadBytes)}, saves ${percent(1 - stored / uploadBytes)})`,
        'none (reported)',
        '-',
      ],
    ],
  );
  const burstTable = markdownTable(
    ['scenario', 'RSS before', 'RSS at most', 'RSS a minute later', '503 answers (sent again)', 'all stored in', 'budget', 'result'],
    [
      [
        `${BURST} different ${BURST_WIDTH} x ${BURST_HEIGHT} JPEG photos (${kb(heavy.photoBytes)} each) sent at once`,
        mb(heavy.rssBefore),
        mb(heavy.peakRss),
        mb(heavy.rssAfter),
        fmt(heavy.busyAnswers),
        `${fmt(heavy.seconds, 1)} s`,
        `at most ${mb(BURST_PEAK_BUDGET)}, under ${mb(BURST_AFTER_BUDGET)} a minute later`,
        verdict(burstOk),
      ],
    ],
  );
  return {
    heading: 'Image uploads (3 MB photo; a burst of 50)',
    table: [...table, '', ...burstTable],
    budgets: [
      {
        name: `${BURST} concurrent ${BURST_WIDTH} x ${BURST_HEIGHT} uploads: peak memory at most ${mb(BURST_PEAK_BUDGET)}, under ${mb(BURST_AFTER_BUDGET)} a minute later`,
        ok: burstOk,
        detail: `peak ${mb(heavy.peakRss)}, ${mb(heavy.rssAfter)} a minute later (${mb(heavy.rssBefore)} before)`,
      },
    ],
    notes: [
      `Each upload is a photo of its own (${uploads.map((upload) => kb(upload.bytes)).join(', ')}), sent one at a time as the raw body with Content-Type image/jpeg; timed from the request to the 201 read in full. One unmeasured upload first on each side.`,
      `Ours per upload: ${uploads.map((upload) => seconds(upload.ms)).join(', ')}; baseline: ${baseline.map((ms) => seconds(ms)).join(', ')}. The ratio is ours MB/s as a share of the baseline's.`,
      'The baseline: MediaService.upload (the same checks, the one decode and the same encodes, stored durably) on the SQLite store of a data directory in the bench process, without HTTP or the server process.',
      `The variants of one upload: ${variants.map((variant) => `${variant.width} ${variant.type.slice('image/'.length)} ${kb(variant.bytes)}`).join(', ')}.`,
      `The burst: a server of its own (servers.ts \`site\`), its VmRSS sampled every ${SAMPLE_MS} ms from the idle server to the last 201, and once more ${BURST_SETTLE_MS / 1000} s later. The server works on 1 upload at a time with 16 in line (api/services/media.ts, decision 0016) and answers the others 503 media_busy with Retry-After; the bench sends each again then, as a client should, until all ${BURST} are stored.`,
    ],
  };
}
