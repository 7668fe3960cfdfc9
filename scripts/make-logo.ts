/**
 * Makes public/logo.png, the site's raster logo (the publisher's logo in the articles' structured data,
 * web/seo/logo.ts), from public/favicon.svg: a square PNG of SITE_LOGO's size. Run it again after the
 * favicon changes: `npx tsx scripts/make-logo.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SITE_LOGO } from '../web/seo/logo';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'public/favicon.svg');
const TARGET = path.join(ROOT, 'public/logo.png');

/** The favicon's SVG drawn at the logo's size (rasterised sharp, not scaled up from 32 pixels). */
export async function renderLogo(svg: Buffer, size: number = SITE_LOGO.width): Promise<Buffer> {
  const viewBoxWidth = Number(/viewBox="[\d.]+ [\d.]+ ([\d.]+)/.exec(svg.toString('utf8'))?.[1] ?? 32);
  // librsvg draws at 72 dpi by default: scale the density so the drawing comes out `size` pixels wide.
  const density = Math.ceil((72 * size) / viewBoxWidth);
  return sharp(svg, { density }).resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png({ compressionLevel: 9, palette: true }).toBuffer();
}

async function main(): Promise<void> {
  const png = await renderLogo(readFileSync(SOURCE));
  writeFileSync(TARGET, png);
  const { width, height } = await sharp(png).metadata();
  console.log(`Wrote ${path.relative(ROOT, TARGET)}: ${width}x${height}, ${png.length} bytes.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`Could not make the logo from ${SOURCE}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
