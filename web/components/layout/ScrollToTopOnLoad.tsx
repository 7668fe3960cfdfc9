/**
 * Pages whose route `handle` sets `scrollToTopOnLoad` open at the top even when the browser (or React
 * Router's scroll restoration) would put the visitor back where they were, e.g. on a reload; an address
 * with a #hash still goes to its anchor. It is an inline script placed after React Router's restoring
 * script, so it works as the page loads, before and without the app. Navigations inside the app
 * already scroll to the top (ScrollRestoration).
 */
import { useMatches } from 'react-router';

export interface PageHandle {
  scrollToTopOnLoad?: boolean;
}

const SCRIPT = "if(!location.hash){history.scrollRestoration='manual';window.scrollTo(0,0)}";

function wantsTop(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && (handle as PageHandle).scrollToTopOnLoad === true;
}

export function ScrollToTopOnLoad() {
  const matches = useMatches();
  if (!matches.some((match) => wantsTop(match.handle))) return null;
  return <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
