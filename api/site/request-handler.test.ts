/**
 * The site's request handler over a build given as a loader (decision 0040): in production the loader is
 * called once, however many requests come while it loads, and each of them is answered by the handler
 * made from that one build; a load that failed is tried again by the next request. In development every
 * request loads the build again (the dev server's modules change under it).
 */
import type { createRequestHandler, ServerBuild } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { siteRequestHandler } from './request-handler';

const made: unknown[] = [];
/** React Router's handler maker, recording what it was made from: its handler answers with the build's name, the mode and the path. */
const create = ((build: unknown, mode?: string) => {
  made.push(build);
  return async (request: Request) => {
    const loaded = typeof build === 'function' ? await (build as () => Promise<{ name: string }>)() : (build as { name: string });
    return new Response(`${loaded.name} ${mode} ${new URL(request.url).pathname}`);
  };
}) as unknown as typeof createRequestHandler;

const build = (name: string) => ({ name }) as unknown as ServerBuild;
const request = (path: string) => new Request(`http://site.test${path}`);
/** The load context the site's loaders get; this fake handler reads none of it. */
const context = {} as Parameters<ReturnType<typeof siteRequestHandler>>[1];

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('siteRequestHandler', () => {
  it('in production, loads the build once for requests that came while it loaded, and answers each with it', async () => {
    made.length = 0;
    const load = deferred<ServerBuild>();
    const loader = vi.fn(() => load.promise);
    const handle = siteRequestHandler(loader, 'production', create);
    expect(loader).not.toHaveBeenCalled();
    const first = handle(request('/'), context);
    const second = handle(request('/blog'), context);
    load.resolve(build('site'));
    expect(await (await first).text()).toBe('site production /');
    expect(await (await second).text()).toBe('site production /blog');
    expect(await (await handle(request('/about-us'), context)).text()).toBe('site production /about-us');
    expect(loader).toHaveBeenCalledTimes(1);
    // One handler, made from the loaded build itself (not from the loader, which would derive the routes per request).
    expect(made).toEqual([build('site')]);
  });

  it('in production, tries a failed load again with the next request', async () => {
    made.length = 0;
    const loader = vi.fn().mockRejectedValueOnce(new Error('build/server/index.js is missing')).mockResolvedValue(build('rebuilt'));
    const handle = siteRequestHandler(loader, 'production', create);
    await expect(handle(request('/'), context)).rejects.toThrow('build/server/index.js is missing');
    expect(await (await handle(request('/'), context)).text()).toBe('rebuilt production /');
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('takes a build given outright as it is, and in development hands the loader itself on (a load per request)', async () => {
    made.length = 0;
    expect(await (await siteRequestHandler(build('given'), 'production', create)(request('/'), context)).text()).toBe('given production /');
    const loader = vi.fn(async () => build('dev'));
    const handle = siteRequestHandler(loader, 'development', create);
    await handle(request('/'), context);
    await handle(request('/'), context);
    expect(loader).toHaveBeenCalledTimes(2);
    expect(made).toEqual([build('given'), loader]);
  });
});
