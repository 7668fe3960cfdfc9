/**
 * The client build's files, served from its folder only where they live: the hashed assets under
 * /assets/ (cached for a year, immutable) and the few files at the folder's root (the favicon, the logo,
 * the licences; an hour). A page's path never reaches the disk: koa-static, asked first for every GET,
 * looked for `<path>.br`, `<path>.gz` and `<path>` before the page renderer answered, on every page
 * served from the answer cache too (issue 39).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import serve from 'koa-static';

const YEAR_SECONDS = 31_536_000;
const NONE: ReadonlySet<string> = new Set();

/** The names in `dir`, or undefined while it does not exist. */
function entriesOf(dir: string): ReadonlySet<string> | undefined {
  try {
    return new Set(readdirSync(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The files of `clientDir` for GET and HEAD requests whose first path segment names one of its entries. */
export function clientFiles(clientDir: string): Middleware {
  // The build is made before the server starts and never changes under it: its entries are read once,
  // or, if the folder is not there yet (a build being made again beside a running test server), at
  // each request until it is.
  let entries: ReadonlySet<string> | undefined;
  const known = (): ReadonlySet<string> => (entries ??= entriesOf(clientDir)) ?? NONE;
  const files = serve(clientDir, {
    index: false,
    setHeaders(res, file) {
      const hashed = path.relative(clientDir, file).startsWith(`assets${path.sep}`);
      res.setHeader('Cache-Control', hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'public, max-age=3600');
    },
  });
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const first = ctx.path.slice(1).split('/', 1)[0] ?? '';
    return known().has(first) ? files(ctx, next) : next();
  };
}
