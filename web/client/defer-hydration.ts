/**
 * Hydrate on interaction (the server half, applied by entry.server.tsx to production pages; the
 * browser half is page-boot.ts). React Router renders a module script that imports the route modules
 * and starts the app, and modulepreload links for every module it needs. Here the links are dropped
 * and the script gets an inert type, carrying the list of modules to preload and the order in which
 * the boot script may run them ahead of it (one per task: see `evaluationOrder`); the page boot script
 * restores both on the visitor's first interaction. A page with no such script comes back unchanged.
 */
import { escapeMarkup } from '../../contract/markup';
import { DEFERRED_EVALUATE_ATTRIBUTE, DEFERRED_PRELOADS_ATTRIBUTE, DEFERRED_SCRIPT_TYPE } from './boot-contract';

const MODULEPRELOAD_LINK = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const STATIC_IMPORT = /\bimport\s+\*\s+as\s+\w+\s+from\s+"([^"]+)"/g;
const DYNAMIC_IMPORT = /\bimport\(\s*"([^"]+)"\s*\)/g;

/**
 * The modules the boot script may evaluate before React Router's script runs, in that order: the
 * shared chunks first (the framework, then the components), then the route modules the script imports,
 * so each import mostly runs one module whose own imports have already run. Never a module the script
 * imports dynamically (the client entry, which starts the app as soon as it runs).
 */
export function evaluationOrder(preloads: readonly string[], scriptText: string): string[] {
  const entries = new Set([...scriptText.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]));
  const routes = [...scriptText.matchAll(STATIC_IMPORT)].map((match) => match[1] ?? '').filter((href) => !entries.has(href));
  return [...preloads.filter((href) => !entries.has(href) && !routes.includes(href)), ...routes];
}

export function deferHydration(html: string): string {
  const preloads: string[] = [];
  const withoutPreloads = html.replace(MODULEPRELOAD_LINK, (tag) => {
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined) preloads.push(href);
    return '';
  });
  let deferred = 0;
  const result = withoutPreloads.replace(SCRIPT_ELEMENT, (element, attributes: string, text: string) => {
    if (!/\btype="module"/.test(attributes) || /\bsrc=/.test(attributes)) return element;
    deferred += 1;
    const list = (hrefs: readonly string[]): string => escapeMarkup(JSON.stringify(hrefs));
    return `<script type="${DEFERRED_SCRIPT_TYPE}" ${DEFERRED_PRELOADS_ATTRIBUTE}="${list(preloads)}" ${DEFERRED_EVALUATE_ATTRIBUTE}="${list(evaluationOrder(preloads, text))}">${text}</script>`;
  });
  return deferred > 0 ? result : html;
}
