/**
 * What the page boot script (page-boot.ts, built into an inline script) shares with the server's
 * half of hydrate on interaction (defer-hydration.ts), the root route (root.tsx), and the components
 * whose state it switches before the app has loaded (Tabs.tsx, DisclosureTable.tsx).
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
/**
 * Dispatched on `document` by the root route once React has hydrated the page, in the same commit as
 * the components' layout effects that take over what the page shows.
 */
export const HYDRATED_EVENT = 'app:hydrated';
/**
 * Marks a link that opens what it names in place on a plain click once the app runs (the video
 * player, the booking form; web/components/ui/plain-click.ts). A plain click on one before the app
 * has loaded is not followed away from the page: the boot script marks the link as opening
 * (`OPENING_ATTRIBUTE`, which CSS shows), and the component opens it when it takes over; any other
 * click is the browser's, as it is without JavaScript.
 */
export const OPENS_IN_PLACE_ATTRIBUTE = 'data-opens-in-place';
/** Set to "true" on an opener tapped before the app has loaded: it shows as opening until the app opens it. */
export const OPENING_ATTRIBUTE = 'data-opening';
/** The header turns white with a shadow once the page is scrolled more than this. */
export const SCROLL_THRESHOLD_PX = 10;

/** On a comparison row's toggle (DisclosureTable.tsx): the id of the explanation it shows. */
export const ROW_TOGGLE_ATTRIBUTE = 'data-row-explains';
/**
 * On a link that chooses a state of its page (a tab link, a comparison row's toggle): the query
 * parameter the choice is kept under in the address, and the value this link chooses.
 */
export const CHOICE_QUERY_ATTRIBUTE = 'data-choice-query';
export const CHOICE_VALUE_ATTRIBUTE = 'data-choice-value';

/** The attributes that name, in the address, the choice a link makes (see `CHOICE_QUERY_ATTRIBUTE`). */
export function choiceAttributes(query: string, value: string): Record<string, string> {
  return { [CHOICE_QUERY_ATTRIBUTE]: query, [CHOICE_VALUE_ATTRIBUTE]: value };
}

export interface PageBootOptions {
  scrollThresholdPx: number;
  deferredType: string;
  preloadsAttribute: string;
  evaluateAttribute: string;
  hydratedEvent: string;
  rowToggleAttribute: string;
  choiceQueryAttribute: string;
  choiceValueAttribute: string;
  opensInPlaceAttribute: string;
  openingAttribute: string;
}

/** The options the boot script runs with. */
export const PAGE_BOOT_OPTIONS: PageBootOptions = {
  scrollThresholdPx: SCROLL_THRESHOLD_PX,
  deferredType: DEFERRED_SCRIPT_TYPE,
  preloadsAttribute: DEFERRED_PRELOADS_ATTRIBUTE,
  evaluateAttribute: DEFERRED_EVALUATE_ATTRIBUTE,
  hydratedEvent: HYDRATED_EVENT,
  rowToggleAttribute: ROW_TOGGLE_ATTRIBUTE,
  choiceQueryAttribute: CHOICE_QUERY_ATTRIBUTE,
  choiceValueAttribute: CHOICE_VALUE_ATTRIBUTE,
  opensInPlaceAttribute: OPENS_IN_PLACE_ATTRIBUTE,
  openingAttribute: OPENING_ATTRIBUTE,
};
