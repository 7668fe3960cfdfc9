import { describe, expect, it } from 'vitest';
import { deferHydration, evaluationOrder } from './defer-hydration';
import { DEFERRED_EVALUATE_ATTRIBUTE, DEFERRED_PRELOADS_ATTRIBUTE, DEFERRED_SCRIPT_TYPE } from './boot-contract';

/** The text of every inline script: what the host's CSP hashes (web never imports the host's code). */
function inlineScriptTexts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1] ?? '').filter((text) => text !== '');
}

// The shape React Router 7 renders: preload links in the head, one inline module script in the body.
const PAGE = [
  '<!DOCTYPE html><html lang="en"><head><title>t</title>',
  '<link rel="stylesheet" href="/assets/site.css"/>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/root-B.js"/>',
  '<script type="application/ld+json">{"@type":"Thing"}</script></head><body><main>Hello</main>',
  '<script>window.__reactRouterContext = {};</script>',
  '<script type="module" async="">import * as route0 from "/assets/root-B.js"; import("/assets/entry.client-A.js");</script>',
  '</body></html>',
].join('');

describe('deferHydration', () => {
  it('drops the modulepreload links and makes the module script inert, listing what to preload and what may run first', () => {
    const html = deferHydration(PAGE);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toContain('type="module"');
    expect(html).toContain(
      `<script type="${DEFERRED_SCRIPT_TYPE}" ${DEFERRED_PRELOADS_ATTRIBUTE}="[&quot;/assets/entry.client-A.js&quot;,&quot;/assets/root-B.js&quot;]" ${DEFERRED_EVALUATE_ATTRIBUTE}="[&quot;/assets/root-B.js&quot;]">import * as route0`,
    );
  });

  it('leaves everything else as it was: the page, the stylesheet, data and other scripts', () => {
    const html = deferHydration(PAGE);
    for (const part of ['<link rel="stylesheet" href="/assets/site.css"/>', '<script type="application/ld+json">', '<script>window.__reactRouterContext = {};</script>', '<main>Hello</main>']) {
      expect(html).toContain(part);
    }
  });

  it('keeps the script text byte for byte, so its CSP hash still allows it when it is started', () => {
    expect(inlineScriptTexts(deferHydration(PAGE))).toEqual(inlineScriptTexts(PAGE));
  });

  it('returns a page without a module script unchanged, preload links included', () => {
    const page = '<html><head><link rel="modulepreload" href="/a.js"/></head><body><script src="/x.js" type="module"></script></body></html>';
    expect(deferHydration(page)).toBe(page);
  });
});

describe('evaluationOrder', () => {
  // React Router's order: the entry and its imports, then each route module and its imports.
  const preloads = ['/e.js', '/react.js', '/root.js', '/icon.js', '/home.js', '/tabs.js', '/icon.js'];
  const script = 'import * as route0 from "/root.js";\nimport * as route1 from "/home.js";\nwindow.__m = {};\nimport("/e.js");';

  it('runs the shared chunks first, then the route modules the script imports, in their order', () => {
    expect(evaluationOrder(preloads, script)).toEqual(['/react.js', '/icon.js', '/tabs.js', '/icon.js', '/root.js', '/home.js']);
  });

  it('never runs ahead a module the script imports dynamically (the entry, which starts the app)', () => {
    expect(evaluationOrder(['/e.js', '/r.js'], 'import * as route0 from "/r.js"; import("/e.js"); import("/r.js");')).toEqual([]);
  });
});
