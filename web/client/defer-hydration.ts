/**
 * Hydrate on interaction (the server half, applied by entry.server.tsx to production pages; the
 * browser half is page-boot.ts). React Router renders a module script that imports the route modules
 * and starts the app, and modulepreload links for every module it needs. Here the links are dropped
 * and the script gets an inert type, carrying the list of modules to preload; the page boot script
 * restores both on the visitor's first sign of activity. A page with no such script comes back unchanged.
 */
import { escapeMarkup } from '../../contract/markup';
import { DEFERRED_PRELOADS_ATTRIBUTE, DEFERRED_SCRIPT_TYPE } from './boot-contract';

const MODULEPRELOAD_LINK = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const SCRIPT_OPEN_TAG = /<script\b([^>]*)>/g;

export function deferHydration(html: string): string {
  const preloads: string[] = [];
  const withoutPreloads = html.replace(MODULEPRELOAD_LINK, (tag) => {
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined) preloads.push(href);
    return '';
  });
  let deferred = 0;
  const result = withoutPreloads.replace(SCRIPT_OPEN_TAG, (tag, attributes: string) => {
    if (!/\btype="module"/.test(attributes) || /\bsrc=/.test(attributes)) return tag;
    deferred += 1;
    return `<script type="${DEFERRED_SCRIPT_TYPE}" ${DEFERRED_PRELOADS_ATTRIBUTE}="${escapeMarkup(JSON.stringify(preloads))}">`;
  });
  return deferred > 0 ? result : html;
}
