import { Link } from 'react-router';
import type { Route } from './+types/api-keys';
import { CodeBlock } from '../../components/ui/CodeBlock';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'API Keys for the Blog API',
    description: 'How to create, list and revoke blog API keys with the blogpost CLI, and what blog:write allows.',
    path: '/admin/api-keys',
    noindex: true,
  });

export default function ApiKeys() {
  return (
    <section className="page-section narrow prose" aria-labelledby="api-keys-title">
      <h1 id="api-keys-title">API Keys</h1>
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
