/**
 * Image uploads (POST /api/media): the time a 3 MB photo takes from the request to the 201 (checked,
 * decoded once, re-encoded at 480/960/1600 as WebP, AVIF and JPEG, stored durably), as seconds per
 * upload and MB/s, against the same work done by MediaService in the bench process (no HTTP, no
 * server process) measured in the same run; and the bytes the variants take against the upload.
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
import { startServer, stop } from './processes';
import { fmt, kb, markdownTable, percent, type Section, seconds } from './report';

const WIDTH = 3000;
const HEIGHT = 2000;
/** The size the photos are made near. */
const TARGET_BYTES = 3 * 1024 * 1024;
/** Measured uploads per side (after one unmeasured upload each). */
const UPLOADS = 3;

/** Detail at a scale of a few pixels: random values at a quarter of the size, enlarged with a cubic filter. */
async function texture(seed: number): Promise<Buffer> {
  const small = Buffer.alloc((WIDTH / 4) * (HEIGHT / 4) * 3);
  let state = seed * 40_503 + 7;
  for (let i = 0; i < small.length; i++) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    small[i] = state % 256;
  }
  return sharp(small, { raw: { width: WIDTH / 4, height: HEIGHT / 4, channels: 3 } }).resize(WIDTH, HEIGHT, { kernel: 'cubic' }).raw().toBuffer();
}

/** A photo-like picture's pixels: colour fields that change slowly, detail, and sensor-like noise; `seed` makes each different. */
async function photoPixels(seed: number): Promise<Buffer> {
  const detail = await texture(seed);
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  let state = seed * 2_654_435_761;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      const at = (y * WIDTH + x) * 3;
      const noise = (state % 21) - 10 + ((detail[at] ?? 128) - 128) * 0.45;
      pixels[at] = Math.max(0, Math.min(255, 110 + 80 * Math.sin(x / 170 + seed) + 30 * Math.cos(y / 60) + noise));
      pixels[at + 1] = Math.max(0, Math.min(255, 120 + 70 * Math.cos(y / 140 + seed) + 20 * Math.sin(x / 45) + noise));
      pixels[at + 2] = Math.max(0, Math.min(255, 60 + ((x + y) * 150) / (WIDTH + HEIGHT) + noise));
    }
  }
  return pixels;
}

/** A ~3 MB JPEG photo: the lowest quality from 85 up that reaches the target. */
async function photo(seed: number): Promise<Buffer> {
  const pixels = await photoPixels(seed);
  let jpeg = Buffer.alloc(0);
  for (let quality = 85; quality <= 98; quality += 1) {
    jpeg = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality }).toBuffer();
    if (jpeg.length >= TARGET_BYTES * 0.95) break;
  }
  return jpeg;
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
  return {
    heading: 'Image uploads (3 MB photo)',
    table,
    budgets: [],
    notes: [
      `Each upload is a photo of its own (${uploads.map((upload) => kb(upload.bytes)).join(', ')}), sent one at a time as the raw body with Content-Type image/jpeg; timed from the request to the 201 read in full. One unmeasured upload first on each side.`,
      `Ours per upload: ${uploads.map((upload) => seconds(upload.ms)).join(', ')}; baseline: ${baseline.map((ms) => seconds(ms)).join(', ')}. The ratio is ours MB/s as a share of the baseline's.`,
      'The baseline: MediaService.upload (the same checks, the one decode and the same encodes, stored durably) on the SQLite store of a data directory in the bench process, without HTTP or the server process.',
      `The variants of one upload: ${variants.map((variant) => `${variant.width} ${variant.type.slice('image/'.length)} ${kb(variant.bytes)}`).join(', ')}.`,
    ],
  };
}
