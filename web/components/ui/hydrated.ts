import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/** False in the server's HTML and while hydrating, true once React runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
