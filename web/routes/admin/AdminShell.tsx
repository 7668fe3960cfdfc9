/**
 * The frame of every signed-in staff page: who is signed in, the staff navigation, and the sign-out
 * forms (this session, or every session of the account), each carrying the CSRF token.
 */
import type { ReactNode } from 'react';
import { Form, NavLink } from 'react-router';
import type { StaffViewer } from '../../../contract/staff-area';

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

export function AdminShell({ viewer, title, children }: { viewer: StaffViewer; title: string; children: ReactNode }) {
  return (
    <div className="admin container">
      <div className="admin-bar">
        <nav aria-label="Staff area">
          <ul>
            <li>
              <NavLink to="/admin" end>
                Dashboard
              </NavLink>
            </li>
            <li>
              <NavLink to="/admin/leads">Leads</NavLink>
            </li>
            <li>
              <NavLink to="/admin/posts">Posts</NavLink>
            </li>
            <li>
              <NavLink to="/admin/review">Review</NavLink>
            </li>
            <li>
              <NavLink to="/admin/api-keys">API keys</NavLink>
            </li>
            <li>
              <NavLink to="/admin/audit">Audit log</NavLink>
            </li>
          </ul>
        </nav>
        <div className="admin-who">
          <span>
            Signed in as <strong>{viewer.name}</strong> ({viewer.email})
          </span>
          <Form method="post" action="/admin/logout" reloadDocument>
            <CsrfField viewer={viewer} />
            <button type="submit" className="button button-outline">
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
      <h1>{title}</h1>
      {children}
    </div>
  );
}
