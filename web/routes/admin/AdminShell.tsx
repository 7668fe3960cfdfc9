/**
 * The frame of every signed-in staff page: the staff area's own bar (the site's name, the staff
 * navigation with the current page marked, who is signed in, and the sign-out forms, each carrying the
 * CSRF token), then the page's title and content.
 */
import type { ReactNode } from 'react';
import { Form, NavLink } from 'react-router';
import type { StaffViewer } from '../../../contract/staff-area';
import { useSiteConfig } from '../../components/layout/site-config-context';

export function CsrfField({ viewer }: { viewer: StaffViewer }) {
  return <input type="hidden" name="_csrf" value={viewer.csrfToken} />;
}

/** A list of facts as term and value, as the staff pages show a record. */
export function AdminFacts({ facts, testId }: { facts: ReadonlyArray<readonly [string, ReactNode]>; testId?: string }) {
  return (
    <dl className="admin-facts" {...(testId ? { 'data-testid': testId } : {})}>
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The staff pages, in the order of the navigation. */
const STAFF_PAGES: ReadonlyArray<{ to: string; label: string; end?: boolean }> = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/leads', label: 'Leads' },
  { to: '/admin/posts', label: 'Posts' },
  { to: '/admin/review', label: 'Review' },
  { to: '/admin/analytics', label: 'Analytics' },
  { to: '/admin/api-keys', label: 'API keys' },
  { to: '/admin/audit', label: 'Audit log' },
];

/** One filter of a staff list's GET form: a labelled select whose first option takes every value. */
export function FilterSelect({ id, label, name, value, any, options }: { id: string; label: string; name: string; value: string | undefined; any: string; options: ReadonlyArray<readonly [string, string]> }) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">{any}</option>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The staff navigation: the current page (or the page a record belongs to) is marked with aria-current. */
export function AdminNav() {
  return (
    <nav aria-label="Staff area" className="admin-nav">
      <ul>
        {STAFF_PAGES.map((page) => (
          <li key={page.to}>
            <NavLink to={page.to} end={page.end ?? false}>
              {page.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The agency's name at the start of the staff bar: a link back to the public site. */
function AdminBrand() {
  return (
    <a className="admin-brand" href="/">
      <span className="visually-hidden">Public site: </span>
      {useSiteConfig().agencyName}
    </a>
  );
}

/**
 * The staff area's own layout (the root leaves out the marketing header, footer and call bar under
 * /admin): a bar with the site's name, the staff navigation and who is signed in, then the page.
 */
export function AdminShell({ viewer, title, children }: { viewer: StaffViewer; title: string; children: ReactNode }) {
  return (
    <div className="admin">
      <header className="admin-bar">
        <div className="admin-bar-inner">
          <AdminBrand />
          <AdminNav />
          <div className="admin-who">
            <span>
              Signed in as <strong>{viewer.name}</strong> <span className="admin-email">({viewer.email})</span>
            </span>
            <Form method="post" action="/admin/logout" reloadDocument>
              <CsrfField viewer={viewer} />
              <button type="submit" className="button button-outline-light">
                Sign out
              </button>
            </Form>
            <Form method="post" action="/admin/logout" reloadDocument>
              <CsrfField viewer={viewer} />
              <input type="hidden" name="everywhere" value="yes" />
              <button type="submit" className="link-button">
                Sign out everywhere
              </button>
            </Form>
          </div>
        </div>
      </header>
      <div className="admin-page container">
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** The staff area's frame for a visitor who is not signed in (the sign-in page, the public part of /admin/api-keys). */
export function AdminPublicShell({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <div className="admin">
      <header className="admin-bar">
        <div className="admin-bar-inner">
          <AdminBrand />
        </div>
      </header>
      <div className={`admin-page container${className ? ` ${className}` : ''}`}>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
