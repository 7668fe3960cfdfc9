/**
 * /admin/api-keys, where the specification says keys are made. For everyone: how keys work and how
 * the operator makes them with the CLI. For a signed-in staff member, above that: every key with its
 * owner, permissions, last use and client; a form to create one (its secret shown once, with a copy
 * button) and one to revoke a key with a reason. Every form carries the CSRF token.
 */
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/api-keys';
import { API_PERMISSIONS, type ApiPermission } from '../../../contract/keys';
import { CodeBlock } from '../../components/ui/CodeBlock';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { CopySecret } from './CopySecret';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'API Keys for the Blog API',
    description: 'How to create, list and revoke blog API keys with the blogpost CLI, and what blog:write allows.',
    path: '/admin/api-keys',
    noindex: true,
  });

export const headers = adminHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.staff.viewer;
  return { viewer, keys: viewer ? await context.staff.keys.list() : [] };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  if (field(form, 'intent') === 'create') {
    const permissions = form.getAll('permission').filter((value): value is ApiPermission => (API_PERMISSIONS as readonly unknown[]).includes(value));
    const outcome = await context.staff.keys.create({ name: field(form, 'name'), owner: field(form, 'owner'), permissions });
    return outcome.ok
      ? { created: { id: outcome.key.id, name: outcome.key.name, secret: outcome.secret }, message: null }
      : data({ created: null, message: outcome.message }, { status: 400 });
  }
  if (field(form, 'intent') === 'revoke') {
    const outcome = await context.staff.keys.revoke(field(form, 'id'), field(form, 'reason').slice(0, 200));
    if (!outcome.ok) return data({ created: null, message: outcome.message }, { status: 404 });
    return { created: null, message: outcome.alreadyRevoked ? `Key "${outcome.key.name}" was already revoked.` : `Revoked key "${outcome.key.name}". Requests with it now get 401.` };
  }
  return data({ created: null, message: 'Unknown action: use the buttons on this page.' }, { status: 400 });
}

function KeyManagement({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const { viewer, keys } = loaderData;
  if (!viewer) return null;
  return (
    <section className="admin-keys" aria-labelledby="manage-keys">
      <h2 id="manage-keys">Manage keys</h2>
      <p>
        Signed in as {viewer.name}. <Link to="/admin">Back to the dashboard</Link>.
      </p>
      {actionData?.message ? (
        <p role="status" className="admin-notice" data-testid="keys-message">
          {actionData.message}
        </p>
      ) : null}
      {actionData?.created ? <CopySecret name={actionData.created.name} secret={actionData.created.secret} /> : null}
      <Form method="post" className="admin-form" aria-labelledby="new-key">
        <h3 id="new-key">Create a key</h3>
        <CsrfField viewer={viewer} />
        <input type="hidden" name="intent" value="create" />
        <div className="form-field">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" name="name" type="text" required maxLength={60} placeholder="Jane Author laptop" />
        </div>
        <div className="form-field">
          <label htmlFor="key-owner">Owner (whose posts it may change; default: the name)</label>
          <input id="key-owner" name="owner" type="text" maxLength={60} placeholder="Jane Author" />
        </div>
        <fieldset className="form-field">
          <legend>Permissions</legend>
          {API_PERMISSIONS.map((permission) => (
            <label key={permission} className="choice" htmlFor={`key-permission-${permission}`}>
              <input id={`key-permission-${permission}`} type="checkbox" name="permission" value={permission} defaultChecked={permission === 'blog:write'} /> {permission}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button-primary">
          Create key
        </button>
      </Form>
      <div className="table-scroll">
        <table className="admin-table" data-testid="keys-table">
          <caption>Every key, newest last; a secret is never shown again</caption>
          <thead>
            <tr>
              <th scope="col">Name (id)</th>
              <th scope="col">Owner</th>
              <th scope="col">Permissions</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td>
                  {key.name} (<code>{key.id}</code>)
                </td>
                <td>{key.owner}</td>
                <td>{key.permissions.join(', ')}</td>
                <td>{key.lastUsedAt ? `${when(key.lastUsedAt)}${key.lastClient ? ` (${key.lastClient})` : ''}` : 'never'}</td>
                <td>
                  {key.revokedAt ? (
                    `revoked ${when(key.revokedAt)}${key.revokedBy ? ` by ${key.revokedBy}` : ''}${key.revokeReason ? `: ${key.revokeReason}` : ''}`
                  ) : (
                    <Form method="post" className="admin-inline-form">
                      <CsrfField viewer={viewer} />
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="id" value={key.id} />
                      <label htmlFor={`revoke-reason-${key.id}`}>Reason</label>
                      <input id={`revoke-reason-${key.id}`} name="reason" type="text" maxLength={200} />
                      <button type="submit" className="button button-danger">
                        Revoke {key.name}
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="page-section narrow prose" aria-labelledby="api-keys-title">
      <h1 id="api-keys-title">API Keys</h1>
      <KeyManagement loaderData={loaderData} actionData={actionData} />
      <p>
        Blog authors and integrators publish articles through <code>POST /api/blog</code> with an API key sent as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>. Keys are created by the site operator on the server with the{' '}
        <code>blogpost</code> command-line tool, which works directly on the site&apos;s data directory.
      </p>
      <h2>Create a key</h2>
      <CodeBlock label="Create a key" language="shell" code={'npx blogpost keys create --name "Jane Author" --permission blog:write'} />
      <p>
        <strong>The secret is shown once.</strong> The store keeps only a hash of it, so nobody, including us, can show
        it again. Copy it into your password manager or your integration&apos;s secret store straight away. If it is
        lost, revoke the key and create a new one.
      </p>
      <h2>Permissions</h2>
      <dl>
        <dt>
          <code>blog:write</code>
        </dt>
        <dd>Create blog posts with POST /api/blog. Every key that publishes needs it; without it the API answers 403.</dd>
        <dt>
          <code>blog:read</code>
        </dt>
        <dd>Read your own drafts through the API (GET /api/blog?status=draft). It cannot create posts.</dd>
      </dl>
      <h2>List and revoke keys</h2>
      <CodeBlock label="List and revoke keys" language="shell" code={'npx blogpost keys list\nnpx blogpost keys revoke <key-id>'} />
      <p>
        Listing shows each key&apos;s id, name, permissions, creation and last-used times, never its secret. A revoked
        key stops working at once.
      </p>
      <p>
        Ready to publish? See the <Link to="/api/usage-examples">Blog API usage examples</Link>.
      </p>
    </section>
  );
}
