/**
 * Whether React runs the page yet. What works only with the app (the tabs' arrow keys, the test
 * console's buttons) is rendered as for a page without script until it does.
 */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/** False in the server's HTML and while hydrating, true once React runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
