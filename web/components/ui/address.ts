/**
 * Writes a choice made on the page (a tab, a comparison row) in the address, so a reload or a shared
 * link shows the same thing, replacing the history entry without scrolling. Through the router (which
 * replaces the entry with history.replaceState) rather than behind its back: a router that missed the
 * change would treat the next in-page link as a move to another page and restore an old scroll position.
 */
import { useNavigate } from 'react-router';

/** Returns a function that sets (or, for null, removes) one query value and the anchor, from the address as it is. */
export function useRememberInAddress(): (name: string, value: string | null, anchor: string) => void {
  const navigate = useNavigate();
  return (name, value, anchor) => {
    const url = new URL(window.location.href);
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
    url.hash = anchor;
    void navigate(`${url.pathname}${url.search}${url.hash}`, { replace: true, preventScrollReset: true });
  };
}
