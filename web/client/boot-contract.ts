/**
 * What the page boot script (page-boot.ts, built into an inline script) shares with the server's
 * half of hydrate on interaction (defer-hydration.ts) and the root route (root.tsx).
 */

/** The type that keeps React Router's module script from running until `pageBoot` starts it. */
export const DEFERRED_SCRIPT_TYPE = 'text/x-hydrate-on-interaction';
/** The attribute of the deferred script that lists the modules to preload when it starts. */
export const DEFERRED_PRELOADS_ATTRIBUTE = 'data-modulepreload';
/** Dispatched on `document` by the root route once React has hydrated the page. */
export const HYDRATED_EVENT = 'app:hydrated';
/** The header turns white with a shadow once the page is scrolled more than this. */
export const SCROLL_THRESHOLD_PX = 10;

export interface PageBootOptions {
  scrollThresholdPx: number;
  deferredType: string;
  preloadsAttribute: string;
  hydratedEvent: string;
}

/** The options the boot script runs with. */
export const PAGE_BOOT_OPTIONS: PageBootOptions = {
  scrollThresholdPx: SCROLL_THRESHOLD_PX,
  deferredType: DEFERRED_SCRIPT_TYPE,
  preloadsAttribute: DEFERRED_PRELOADS_ATTRIBUTE,
  hydratedEvent: HYDRATED_EVENT,
};
