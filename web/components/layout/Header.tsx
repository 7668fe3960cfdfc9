/**
 * Fixed navigation bar: transparent at the top, white with a shadow once the page is scrolled more
 * than 10 px (`data-scrolled` on <html>, kept by web/client/page-boot.ts so it works before hydration);
 * up to 1100 px wide (phones, tablets) a toggle menu that closes when an item is chosen.
 */
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { mainNavigation } from '../../content/navigation';
import { useSiteConfig } from './site-config-context';

export function Header() {
  const config = useSiteConfig();
  const location = useLocation();
  // The menu is open for one location only: any navigation (a link, the back button) closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location.key;
  const setMenuOpen = (open: boolean) => setMenuOpenAt(open ? location.key : null);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpenAt(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const close = () => setMenuOpen(false);

  return (
    <header className="site-header" data-testid="site-header">
      <nav className="nav container" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <span className="brand-mark" aria-hidden="true">
            {config.agencyName.charAt(0)}
          </span>
          <span className="brand-name">{config.agencyName}</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? <X aria-hidden="true" size={24} /> : <Menu aria-hidden="true" size={24} />}
          <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
        </button>
        <ul id="main-menu" className="nav-links" data-open={menuOpen ? 'true' : 'false'}>
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
