/**
 * /admin/login ("Admin Login"): staff sign in with e-mail and password. The form carries a token
 * paired with a short-lived cookie (the server checks both), works without JavaScript, and its error
 * never says whether the e-mail exists. A signed-in visitor goes straight on; after signing in, back
 * to the staff page that sent them here.
 */
import { Form, data, redirect, useNavigation } from 'react-router';
import type { Route } from './+types/login';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminPublicShell } from './AdminShell';
import { adminHeaders, field, safeNext } from './admin-route';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Admin Login',
    description: 'Sign-in page of the administration area, for agency staff members only.',
    path: '/admin/login',
    noindex: true,
  });

export const headers = adminHeaders;

export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get('next'));
  if (context.staff.viewer) throw redirect(next);
  const { token, setCookie } = context.staff.loginToken();
  return data(
    { token, next, signedOut: url.searchParams.has('signedOut') },
    setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined,
  );
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const email = field(form, 'email');
  const outcome = await context.staff.signIn({ email, password: typeof form.get('password') === 'string' ? String(form.get('password')) : '', loginToken: field(form, 'loginToken') });
  if (outcome.ok) throw redirect(safeNext(field(form, 'next')), { status: 303, headers: outcome.setCookies.map((value): [string, string] => ['Set-Cookie', value]) });
  const status = outcome.retryAfterSeconds !== null ? 429 : 401;
  return data({ email, message: outcome.message }, { status, headers: outcome.retryAfterSeconds !== null ? { 'Retry-After': String(outcome.retryAfterSeconds) } : {} });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting';
  return (
    <AdminPublicShell title="Admin Login" className="admin-login">
      <p>For agency staff. Authors who need an API key: see <a href="/admin/api-keys">API keys</a>.</p>
      {loaderData.signedOut && !actionData ? (
        <p role="status" className="admin-notice">
          You are signed out.
        </p>
      ) : null}
      {actionData ? (
        <div className="error-summary" role="alert" data-testid="login-error">
          <p>{actionData.message}</p>
        </div>
      ) : null}
      <Form method="post" className="admin-form" reloadDocument>
        <input type="hidden" name="loginToken" value={loaderData.token} />
        <input type="hidden" name="next" value={loaderData.next} />
        <div className="form-field">
          <label htmlFor="login-email">E-mail</label>
          <input id="login-email" name="email" type="email" autoComplete="username" required spellCheck={false} defaultValue={actionData?.email} />
        </div>
        <div className="form-field">
          <label htmlFor="login-password">Password</label>
          <input id="login-password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="button button-primary" disabled={sending}>
          Sign in
        </button>
      </Form>
      <p className="field-hint">Forgot your password? Ask an administrator to reset it (blogpost staff reset-password).</p>
    </AdminPublicShell>
  );
}
