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
 */
import { Menu, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { mainNavigation } from '../../content/navigation';
import { useSiteConfig } from './site-config-context';

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
                <Link to={item.to} onClick={close}>
                  {item.label}
                </Link>
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
