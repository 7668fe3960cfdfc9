/**
 * The uploaded images' variants at /media/<id>-<width>.<ext>, from the store (never a path on disk
 * built from the URL: only names MEDIA_FILE_PATTERN matches are looked up). A name is its content's
 * hash, so an answer never changes: cached for a year as immutable, with the name as its ETag. Every
 * answer says `nosniff` and a Content-Security-Policy that lets nothing run, should a browser be
 * pointed at one as a page. A name that is not a stored variant is a plain 404.
 */
import type { Middleware } from 'koa';
import { MEDIA_FILE_PATTERN, MEDIA_PATH_PREFIX, MEDIA_TYPE_OF_EXTENSION, type MediaExtension } from '../../contract/media';
import type { MediaRepository } from '../store/store';


const YEAR_SECONDS = 31_536_000;

/** Headers every /media/ answer carries, found or not. */
function protect(ctx: Parameters<Middleware>[0]): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'");
}

/** Serves GET and HEAD of /media/<file>; other methods and paths go on (the pages' guard answers them). */
export function mediaFiles(media: MediaRepository): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(MEDIA_PATH_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path.slice(MEDIA_PATH_PREFIX.length);
    const match = MEDIA_FILE_PATTERN.exec(name);
    const bytes = match ? await media.read(name) : null;
    protect(ctx);
    if (!match || !bytes) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `No image is stored at ${MEDIA_PATH_PREFIX}${match ? name : '...'}: its address may be mistyped, or the image was deleted.\n`;
      return;
    }
    ctx.status = 200;
    ctx.type = MEDIA_TYPE_OF_EXTENSION[match[3] as MediaExtension];
    ctx.set('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
    ctx.set('ETag', `"${name}"`);
    ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}
