/**
 * Fixed navigation bar: transparent at the top, white with a shadow once the page is scrolled more
 * than 10 px (`data-scrolled` on <html>, kept by web/client/page-boot.ts so it works before hydration);
 * up to 1100 px wide (phones, tablets) a toggle menu that closes when an item is chosen.
 *
 * The toggle is a native disclosure, `<details class="site-menu"><summary>`, so it opens and closes as
 * plain HTML before (and without) any script; the link list follows it and CSS shows it while the
 * details is open (above 1100 px the list is always shown and the toggle hidden). The browser owns the
 * open state and tells assistive technology whether it is expanded; React never renders `open`, it
 * only closes the menu when an item is chosen, on any navigation and on Escape.
 *
 * Without the app, choosing an item loads its page, which starts with the menu closed, except for an
 * anchor of the page being read (How It Works on the home page): the browser only scrolls to it, and
 * the menu would stay open over the section. Such a link is written with a `from=menu` query, another
 * address, so the browser loads the page again and then scrolls to the anchor; the app, when it is in
 * charge, goes to the plain anchor instead.
 */
import { Menu, X } from 'lucide-react';
import { type MouseEvent, useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { mainNavigation, type NavItem } from '../../content/navigation';
import { useSiteConfig } from './site-config-context';

/** Where the page is: the parts of the address a link's target is compared with. */
interface PageAddress {
  pathname: string;
  search: string;
}

/**
 * The address a menu link is written with: `to`, unless that is only an anchor of `page` (same path
 * and query), which the browser would scroll to without loading a page; then `to` with the query
 * `from=menu`, which it loads. On the page so loaded (whose query is that) the plain `to` differs again.
 */
export function menuLinkHref(to: string, page: PageAddress): string {
  const target = new URL(to, 'http://site.invalid');
  if (target.hash === '' || target.pathname !== page.pathname || target.search !== page.search) return to;
  return `${target.pathname}?from=menu${target.hash}`;
}

/** True for a plain click, which the app handles; a click meant for a new tab or window is the browser's. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** One of the menu's own pages or sections (see menuLinkHref for an anchor of the current page). */
function MenuLink({ item, onChoose }: { item: NavItem; onChoose: () => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const href = menuLinkHref(item.to, location);
  if (href === item.to) {
    return (
      <Link to={item.to} onClick={onChoose}>
        {item.label}
      </Link>
    );
  }
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onChoose();
    if (!isPlainClick(event)) return;
    event.preventDefault();
    void navigate(item.to);
  };
  return (
    <a href={href} onClick={onClick}>
      {item.label}
    </a>
  );
}

/** Closes the menu when the location changes (a link, the back button) and on Escape. */
function useClosingMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const { key: locationKey } = useLocation();
  // The location the menu was opened at: a menu opened before the app loaded stays open when it does.
  const shownAt = useRef(locationKey);
  const close = () => {
    if (menu.current) menu.current.open = false;
  };

  useEffect(() => {
    if (shownAt.current === locationKey) return;
    shownAt.current = locationKey;
    if (menu.current) menu.current.open = false;
  }, [locationKey]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const details = menu.current;
      if (event.key !== 'Escape' || !details?.open) return;
      const hadFocus = details.parentElement?.contains(document.activeElement) ?? false;
      details.open = false;
      if (hadFocus) details.querySelector('summary')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return { menu, close };
}

export function Header() {
  const config = useSiteConfig();
  const { menu, close } = useClosingMenu();

  return (
    <header className="site-header" data-testid="site-header">
      <nav className="nav container" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <span className="brand-mark" aria-hidden="true">
            {config.agencyName.charAt(0)}
          </span>
          <span className="brand-name">{config.agencyName}</span>
        </Link>
        <details ref={menu} className="site-menu">
          <summary className="menu-toggle" aria-controls="main-menu">
            <Menu aria-hidden="true" size={24} className="menu-icon-open" />
            <X aria-hidden="true" size={24} className="menu-icon-close" />
            <span className="visually-hidden menu-label-open">Open menu</span>
            <span className="visually-hidden menu-label-close">Close menu</span>
          </summary>
        </details>
        <ul id="main-menu" className="nav-links">
          {mainNavigation(config).map((item) => (
            <li key={item.label}>
              {item.external ? (
                <a href={item.to} target="_blank" rel="noopener noreferrer" onClick={close}>
                  {item.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              ) : (
                <MenuLink item={item} onChoose={close} />
              )}
            </li>
          ))}
          <li>
            <Link to="/get-quote" className="button button-primary nav-cta" onClick={close}>
              Get A Quote
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
