import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useLocation,
} from 'react-router';
import { WRITING_APP_LINKS } from '../contract/writing-apps';
import { type ReactNode, useLayoutEffect } from 'react';
import type { Route } from './+types/root';
import { CallBar } from './components/layout/CallBar';
import { Footer } from './components/layout/Footer';
import { Header } from './components/layout/Header';
import { useRootData } from './components/layout/site-config-context';
import { JsonLd } from './seo/JsonLd';
import { notFoundMeta } from './seo/meta';
import { insuranceAgencyJsonLd } from './seo/organization';
import { NotFoundContent } from './components/layout/NotFoundContent';
import { ScrollToTopOnLoad } from './components/layout/ScrollToTopOnLoad';
import siteCss from './styles/site.css?url';
import bodyFont from '@fontsource-variable/source-sans-3/files/source-sans-3-latin-wght-normal.woff2?url';
import { HYDRATED_EVENT } from './client/boot-contract';
// The page boot script, bundled and minified by the build (scripts/vite-inline-script.ts).
import PAGE_BOOT_SCRIPT from './client/page-boot?inline-script';

export function loader({ context }: Route.LoaderArgs) {
  return { config: context.config, year: new Date().getFullYear() };
}

// A child that throws renders the root error boundary with the root's head: describe the error there.
export const meta: Route.MetaFunction = ({ error, data, location }) => {
  if (!error || !data) return [];
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 410)) return notFoundMeta(data.config, location.pathname, error.status === 410);
  return [{ title: 'Unexpected Application Error!' }, { name: 'robots', content: 'noindex' }];
};

// The configuration never changes between navigations: do not refetch it.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export const links: Route.LinksFunction = () => [
  { rel: 'preload', href: bodyFont, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'stylesheet', href: siteCss },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/** The staff area (/admin and below) has its own frame (routes/admin/AdminShell.tsx): no marketing header, footer or call bar. */
function isStaffPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

export function Layout({ children }: { children: ReactNode }) {
  const { config } = useRootData();
  const staff = isStaffPath(useLocation().pathname);
  // Marks the document once React owns it (tests wait for this), and tells the page boot script to
  // leave the page to React. In a layout effect: it runs in the commit that hydrates, after the
  // components' own (Tabs, DisclosureTable), which take over what the boot script showed, so no tap
  // falls between the two. In the Layout, so error and not-found pages do too.
  useLayoutEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    document.dispatchEvent(new Event(HYDRATED_EVENT));
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0b3b60" />
        <Meta />
        <Links />
        {WRITING_APP_LINKS.map(([rel, href]) => (
          <link key={rel} rel={rel} href={href} />
        ))}
        {/* RUM_SAMPLE_RATE for the Core Web Vitals beacon (web/client/vitals.ts); none in the staff area. */}
        {staff ? null : <meta name="rum-sample-rate" content={String(config.rumSampleRate)} />}
        <JsonLd data={insuranceAgencyJsonLd(config)} />
        <script dangerouslySetInnerHTML={{ __html: PAGE_BOOT_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <div id="root">
          {staff ? null : <Header />}
          <main id="main" tabIndex={-1} className={staff ? 'admin-main' : undefined}>
            {children}
          </main>
          {staff ? null : <Footer />}
          {staff ? null : <CallBar />}
        </div>
        <ScrollRestoration />
        <ScrollToTopOnLoad />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 410)) {
    return <NotFoundContent gone={error.status === 410} />;
  }
  if (import.meta.env.DEV) console.error(error);
  return (
    <section className="page-section error-page" aria-labelledby="error-title">
      <h1 id="error-title">Unexpected Application Error!</h1>
      <p>
        Something went wrong while showing this page. Please reload, or go back to the <a href="/">home page</a>.
        If it keeps happening, call us and we will help right away.
      </p>
    </section>
  );
}
