/**
 * What every staff page shares: the signed-in check of its loader and action (a visitor without a
 * session is sent to the sign-in page, which brings them back), the answer headers (never stored, the
 * cookies a sign-in or sign-out sets), and the one place a `next` address is trusted.
 */
import { type AppLoadContext, redirect } from 'react-router';
import type { StaffViewer } from '../../../contract/staff-area';

/** The signed-in staff member, or a redirect to the sign-in page that comes back here. */
export function requireViewer(context: AppLoadContext, request: Request): StaffViewer {
  const viewer = context.staff.viewer;
  if (!viewer) {
    const url = new URL(request.url);
    throw redirect(`/admin/login?next=${encodeURIComponent(`${url.pathname.replace(/\.data$/, '')}${url.search}`)}`);
  }
  return viewer;
}

/** Where to go after signing in: a staff page of this site, never another site (`//evil`, `/\evil`). */
export function safeNext(next: string | null): string {
  if (!next || !/^\/admin(?:[/?#]|$)/.test(next) || next.startsWith('/admin/login')) return '/admin';
  return next;
}

/** Staff pages are never cached; the cookies (and a Retry-After) their loader or action set go out with the page. */
export function adminHeaders({ loaderHeaders, actionHeaders }: { loaderHeaders: Headers; actionHeaders: Headers }): Headers {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const cookie of [...loaderHeaders.getSetCookie(), ...actionHeaders.getSetCookie()]) headers.append('Set-Cookie', cookie);
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
}

/** The form's field as a trimmed string ('' when absent). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
