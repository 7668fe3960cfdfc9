/**
 * What the page boot script (page-boot.ts, built into an inline script) shares with the server's
 * half of hydrate on interaction (defer-hydration.ts) and the root route (root.tsx).
 */

/** The type that keeps React Router's module script from running until `pageBoot` starts it. */
export const DEFERRED_SCRIPT_TYPE = 'text/x-hydrate-on-interaction';
/** The attribute of the deferred script that lists the modules to preload when it starts. */
export const DEFERRED_PRELOADS_ATTRIBUTE = 'data-modulepreload';
/**
 * The attribute of the deferred script that lists, in order, the modules that may run before it: the
 * shared chunks, then the route modules (not the entry, which starts the app). The boot script runs
 * them one per task, so a tap between two of them is answered at once.
 */
export const DEFERRED_EVALUATE_ATTRIBUTE = 'data-evaluate-first';
/** Dispatched on `document` by the root route once React has hydrated the page. */
export const HYDRATED_EVENT = 'app:hydrated';
/**
 * Marks a link that opens what it names in place on a plain click once the app runs (the video
 * player, the booking form; web/components/ui/plain-click.ts). The boot script keeps a plain click on
 * one made before the app has loaded and replays it after, rather than letting the browser follow
 * the link away from the page; any other click is the browser's, as it is without JavaScript.
 */
export const OPENS_IN_PLACE_ATTRIBUTE = 'data-opens-in-place';
/** The header turns white with a shadow once the page is scrolled more than this. */
export const SCROLL_THRESHOLD_PX = 10;

export interface PageBootOptions {
  scrollThresholdPx: number;
  deferredType: string;
  preloadsAttribute: string;
  evaluateAttribute: string;
  hydratedEvent: string;
}

/** The options the boot script runs with. */
export const PAGE_BOOT_OPTIONS: PageBootOptions = {
  scrollThresholdPx: SCROLL_THRESHOLD_PX,
  deferredType: DEFERRED_SCRIPT_TYPE,
  preloadsAttribute: DEFERRED_PRELOADS_ATTRIBUTE,
  evaluateAttribute: DEFERRED_EVALUATE_ATTRIBUTE,
  hydratedEvent: HYDRATED_EVENT,
};
