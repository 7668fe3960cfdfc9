/**
 * The call bar: on phones and small tablets (up to 768 px, web/styles/mobile.css) a compact bar fixed
 * at the bottom of the screen with "Call <phone>" and "Get a quote", plain links that work before and
 * without JavaScript. A spacer of the same height ends the page, so the bar never covers the footer's
 * last line. The bar's colour runs to the screen's bottom edge (viewport-fit=cover in root.tsx) and its
 * padding keeps the buttons above a phone's home indicator (the safe-area insets, mobile.css). Not on staff pages, and not on /get-quote itself: that page is the quote form (a bar
 * there would repeat its own call to action and, on a phone, ride above the keyboard over the field
 * being typed in); it already shows the phone number on its first screen. After a request, on
 * /get-quote/thank-you, only the call link remains.
 */
import { Phone } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useSiteConfig } from './site-config-context';

/** What the bar offers on a page: nothing, the call only, or the call and the quote link. */
export type CallBarLinks = 'none' | 'call' | 'call-and-quote';

const STAFF_PATHS = ['/admin', '/login'];

function isUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** Chooses the bar's links from the page's path (trailing slashes ignored). */
export function callBarLinks(pathname: string): CallBarLinks {
  const pagePath = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (STAFF_PATHS.some((base) => isUnder(pagePath, base))) return 'none';
  if (pagePath === '/get-quote') return 'none';
  if (isUnder(pagePath, '/get-quote')) return 'call';
  return 'call-and-quote';
}

export function CallBar() {
  const config = useSiteConfig();
  const links = callBarLinks(useLocation().pathname);
  if (links === 'none') return null;
  return (
    <>
      <div className="call-bar-space" />
      <nav className="call-bar" aria-label="Call or get a quote" data-testid="call-bar">
        <a href={`tel:${config.phoneE164}`} className="button call-bar-call">
          <Phone aria-hidden="true" size={16} /> Call <span className="phone-number">{config.phoneDisplay}</span>
        </a>
        {links === 'call-and-quote' ? (
          <Link to="/get-quote" className="button button-accent call-bar-quote">
            Get a quote
          </Link>
        ) : null}
        {/* The end of the bar: until the browser has read this far, the bar is not shown (mobile.css). */}
        <span className="call-bar-end" hidden />
      </nav>
    </>
  );
}
