/**
 * POST /admin/logout: ends this session, or with `everywhere` every session of the account (a lost
 * laptop), clears the cookie and shows the sign-in page. The staff area's gate has checked the CSRF
 * token. A GET shows nothing here: it goes to the dashboard (or the sign-in page).
 */
import { redirect } from 'react-router';
import type { Route } from './+types/logout';
import { adminHeaders, field, requireViewer } from './admin-route';

export const headers = adminHeaders;

export function loader(): never {
  throw redirect('/admin');
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const cleared = await context.staff.signOut(field(form, 'everywhere') === 'yes');
  throw redirect('/admin/login?signedOut=1', { status: 303, headers: { 'Set-Cookie': cleared } });
}
