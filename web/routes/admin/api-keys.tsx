/**
 * /admin/api-keys, where the specification says keys are made. For everyone: how keys work, what each
 * of the three permissions allows, and how the operator makes them with the CLI. For a signed-in staff
 * member, above that and inside the staff area's layout: every key with its owner, permissions, last use
 * and client; a form to create one (its secret shown once, with a copy button); and revoking, which
 * takes two pages so it works without JavaScript: "Revoke…" opens a confirmation (?revoke=<id>) showing
 * the key and what stops working, with a required reason; its POST revokes and writes the reason to the
 * audit log. A refused reason shows the same confirmation again with what was typed.
 */
import { Form, Link, data, redirect } from 'react-router';
import type { Route } from './+types/api-keys';
import { API_KEY_PREFIX, API_PERMISSIONS, type ApiPermission } from '../../../contract/keys';
import { STAFF_REASON_MAX, type StaffKey, type StaffViewer } from '../../../contract/staff-area';
import { CodeBlock } from '../../components/ui/CodeBlock';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminFacts, AdminPublicShell, AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { CopySecret } from './CopySecret';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'API Keys for the Blog API',
    description: 'How to create, list and revoke blog API keys, and what blog:write, blog:read and blog:admin allow.',
    path: '/admin/api-keys',
    noindex: true,
  });

export const headers = adminHeaders;

/** What each permission lets a key do, in the words the page and the create form use. */
export const PERMISSION_TEXT: Record<ApiPermission, string> = {
  'blog:write': 'Create and change the posts of keys with the same owner (POST /api/blog, then PATCH, PUT or DELETE /api/blog/:id). Every key that publishes needs it; without it the API answers 403.',
  'blog:read': 'Read your own drafts through the API (GET /api/blog?status=draft). It cannot create or change posts.',
  'blog:admin':
    "Everything blog:write and blog:read allow, for every owner's posts: change, delete and restore any post, delete any image no post uses, and decide posts held for compliance review (POST /api/blog/:id/review); under COMPLIANCE_MODE=review its own posts are not held. Give it only to the people who run the site.",
};

function prefixOf(id: string): string {
  return `${API_KEY_PREFIX}${id}_…`;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = context.staff.viewer;
  if (!viewer) return { viewer: null, keys: [], confirm: null, notice: null };
  const params = new URL(request.url).searchParams;
  const revoking = params.get('revoke');
  if (revoking) {
    const key = await context.staff.keys.get(revoking.slice(0, 100));
    if (!key) return data({ viewer, keys: await context.staff.keys.list(), confirm: null, notice: 'There is no key with that id: pick one from the list.' }, { status: 404 });
    return { viewer, keys: [], confirm: key, notice: null };
  }
  const revoked = params.get('revoked');
  const named = revoked ? await context.staff.keys.get(revoked.slice(0, 100)) : null;
  const notice = named?.revokedAt ? `Revoked key "${named.name}". Requests with it now get 401.` : null;
  return { viewer, keys: await context.staff.keys.list(), confirm: null, notice };
}

interface ActionAnswer {
  created: { id: string; name: string; secret: string; ghost: boolean } | null;
  message: string | null;
  /** What was typed in the revoke form, shown again when it was refused. */
  reason?: string;
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  if (field(form, 'intent') === 'create') {
    const permissions = form.getAll('permission').filter((value): value is ApiPermission => (API_PERMISSIONS as readonly unknown[]).includes(value));
    const outcome = await context.staff.keys.create({ name: field(form, 'name'), owner: field(form, 'owner'), permissions, ghost: form.get('kind') === 'ghost' });
    return outcome.ok
      ? { created: { id: outcome.key.id, name: outcome.key.name, secret: outcome.secret, ghost: form.get('kind') === 'ghost' }, message: null }
      : data<ActionAnswer>({ created: null, message: outcome.message }, { status: 400 });
  }
  if (field(form, 'intent') === 'revoke') {
    const id = field(form, 'id');
    const typed = form.get('reason');
    const reason = typeof typed === 'string' ? typed : '';
    const outcome = await context.staff.keys.revoke(id, reason);
    if (!outcome.ok) return data<ActionAnswer>({ created: null, message: outcome.message, reason }, { status: (await context.staff.keys.get(id)) ? 400 : 404 });
    if (outcome.alreadyRevoked) return { created: null, message: `Key "${outcome.key.name}" was already revoked.` };
    throw redirect(`/admin/api-keys?revoked=${encodeURIComponent(outcome.key.id)}`, 303);
  }
  return data<ActionAnswer>({ created: null, message: 'Unknown action: use the buttons on this page.' }, { status: 400 });
}

function RevokeConfirmation({ viewer, stored, answer }: { viewer: StaffViewer; stored: StaffKey; answer: ActionAnswer | undefined }) {
  const refused = answer?.message ?? null;
  return (
    <section aria-labelledby="revoke-title" data-testid="revoke-confirm">
      <h2 id="revoke-title">Revoke the key "{stored.name}"?</h2>
      <AdminFacts
        testId="revoke-key-facts"
        facts={[
          ['Name', stored.name],
          ['Key prefix', <code key="prefix">{prefixOf(stored.id)}</code>],
          ['Owner', stored.owner],
          ['Permissions', stored.permissions.join(', ')],
          ['Created', when(stored.createdAt)],
          ['Last used', stored.lastUsedAt ? when(stored.lastUsedAt) : 'never'],
        ]}
      />
      {stored.revokedAt ? (
        <p className="admin-notice">
          This key was already revoked {when(stored.revokedAt)}. <Link to="/admin/api-keys">Back to the keys</Link>.
        </p>
      ) : (
        <>
          <h3>What stops working</h3>
          <ul className="admin-list">
            <li>Every request with this key gets 401 at once: publishing, changing and reading posts, uploading images ({stored.permissions.join(', ')}).</li>
            <li>Integrations, scripts and the blogpost CLI set up with it stop until they are given a new key.</li>
            <li>The posts and images made with it stay as they are. A revoked key cannot be turned back on; create a new one instead.</li>
          </ul>
          {refused ? (
            <div className="error-summary" role="alert" data-testid="revoke-error">
              <p>{refused}</p>
            </div>
          ) : null}
          <Form method="post" action={`/admin/api-keys?revoke=${encodeURIComponent(stored.id)}`} className="admin-form">
            <CsrfField viewer={viewer} />
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="id" value={stored.id} />
            <div className="form-field">
              <label htmlFor="revoke-reason">Reason (kept in the audit log)</label>
              <textarea
                id="revoke-reason"
                name="reason"
                rows={3}
                required
                maxLength={STAFF_REASON_MAX}
                defaultValue={answer?.reason ?? ''}
                aria-describedby="revoke-reason-hint"
                {...(refused ? { 'aria-invalid': true } : {})}
              />
              <span id="revoke-reason-hint" className="field-hint">
                For example "laptop lost" or "integration retired"; at most {STAFF_REASON_MAX} characters.
              </span>
            </div>
            <div className="admin-actions">
              <button type="submit" className="button button-danger">
                Revoke {stored.name}
              </button>
              <Link to="/admin/api-keys" className="button button-outline">
                Cancel
              </Link>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

function KeyManagement({ viewer, keys, notice, answer }: { viewer: StaffViewer; keys: StaffKey[]; notice: string | null; answer: ActionAnswer | undefined }) {
  const message = answer?.message ?? notice;
  return (
    <section className="admin-keys" aria-labelledby="manage-keys">
      <h2 id="manage-keys">Manage keys</h2>
      {message ? (
        <p role="status" className={answer?.message ? 'admin-notice admin-refusal' : 'admin-notice'} data-testid="keys-message">
          {message}
        </p>
      ) : null}
      {answer?.created ? <CopySecret name={answer.created.name} secret={answer.created.secret} ghost={answer.created.ghost} /> : null}
      <Form method="post" action="/admin/api-keys" className="admin-form" aria-labelledby="new-key">
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
        <fieldset className="form-field admin-permissions">
          <legend>Permissions</legend>
          {API_PERMISSIONS.map((permission) => (
            <div key={permission} className="admin-permission">
              <label className="choice" htmlFor={`key-permission-${permission}`}>
                <input
                  id={`key-permission-${permission}`}
                  type="checkbox"
                  name="permission"
                  value={permission}
                  defaultChecked={permission === 'blog:write'}
                  aria-describedby={`key-permission-${permission}-text`}
                />{' '}
                <code>{permission}</code>
              </label>
              <p id={`key-permission-${permission}-text`} className="field-hint">
                {PERMISSION_TEXT[permission]}
              </p>
            </div>
          ))}
        </fieldset>
        <div className="form-field">
          <label className="choice" htmlFor="key-kind-ghost">
            <input id="key-kind-ghost" type="checkbox" name="kind" value="ghost" aria-describedby="key-kind-ghost-text" /> Ghost Admin API key
          </label>
          <p id="key-kind-ghost-text" className="field-hint">
            For writing apps that publish to Ghost (iA Writer, Ulysses, Obsidian): the key is shown as <code>id:secret</code>; paste it into the app with the site's address.
          </p>
        </div>
        <button type="submit" className="button button-primary">
          Create key
        </button>
      </Form>
      <div className="table-scroll">
        <table className="admin-table" data-testid="keys-table">
          <caption>Every key, newest last; a secret is never shown again</caption>
          <thead>
            <tr>
              <th scope="col">Name (prefix)</th>
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
                  {key.name} (<code>{key.kind === 'ghost' ? `${key.id}:…` : prefixOf(key.id)}</code>){key.kind === 'ghost' ? ' · Ghost' : ''}
                </td>
                <td>{key.owner}</td>
                <td>{key.permissions.join(', ')}</td>
                <td>{key.lastUsedAt ? `${when(key.lastUsedAt)}${key.lastClient ? ` (${key.lastClient})` : ''}` : 'never'}</td>
                <td>
                  {key.revokedAt ? (
                    `revoked ${when(key.revokedAt)}${key.revokedBy ? ` by ${key.revokedBy}` : ''}${key.revokeReason ? `: ${key.revokeReason}` : ''}`
                  ) : (
                    <>
                      active ·{' '}
                      <Link to={`/admin/api-keys?revoke=${encodeURIComponent(key.id)}`} aria-label={`Revoke ${key.name}…`}>
                        Revoke…
                      </Link>
                    </>
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

function HowKeysWork() {
  return (
    <section className="prose" aria-labelledby="keys-how">
      <h2 id="keys-how">How keys work</h2>
      <p>
        Blog authors and integrators publish articles through <code>POST /api/blog</code> with an API key sent as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>. Staff create keys on this page; the site operator can also create them on the server with the{' '}
        <code>blogpost</code> command-line tool, which works directly on the site&apos;s data directory.
      </p>
      <CodeBlock label="Create a key" language="shell" code={'npx blogpost keys create --name "Jane Author" --permission blog:write'} />
      <p>
        <strong>The secret is shown once.</strong> The store keeps only a hash of it, so nobody, including us, can show
        it again. Copy it into your password manager or your integration&apos;s secret store straight away. If it is
        lost, revoke the key and create a new one.
      </p>
      <h3>Permissions</h3>
      <dl data-testid="permission-explanations">
        {API_PERMISSIONS.map((permission) => (
          <div key={permission}>
            <dt>
              <code>{permission}</code>
            </dt>
            <dd>{PERMISSION_TEXT[permission]}</dd>
          </div>
        ))}
      </dl>
      <h3>List and revoke keys with the CLI</h3>
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

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, keys, confirm, notice } = loaderData;
  if (!viewer) {
    return (
      <AdminPublicShell title="API Keys">
        <p>
          Staff: <Link to="/admin/login?next=%2Fadmin%2Fapi-keys">sign in</Link> to create and revoke keys.
        </p>
        <HowKeysWork />
      </AdminPublicShell>
    );
  }
  if (confirm) {
    return (
      <AdminShell viewer={viewer} title="Revoke an API key">
        <RevokeConfirmation viewer={viewer} stored={confirm} answer={actionData} />
      </AdminShell>
    );
  }
  return (
    <AdminShell viewer={viewer} title="API Keys">
      <KeyManagement viewer={viewer} keys={keys} notice={notice} answer={actionData} />
      <HowKeysWork />
    </AdminShell>
  );
}
