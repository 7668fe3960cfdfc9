/**
 * A new API key's secret, shown once: selectable text (enough without JavaScript) and a button that
 * copies it, saying so. The page that shows it is never cached.
 */
import { useState } from 'react';

export function CopySecret({ name, secret, ghost = false }: { name: string; secret: string; ghost?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="admin-secret" role="region" aria-labelledby="new-secret" data-testid="new-key-secret">
      <h3 id="new-secret">The secret of "{name}": copy it now</h3>
      <p>
        {ghost
          ? 'It is shown this once. The site keeps no copy of it: it is worked out again from a signing key only the site holds when an app signs in with it, and revoking the key stops it.'
          : 'It is shown this once. The site keeps only a hash of it, so nobody can show it again.'}
      </p>
      <p>
        <code>{secret}</code>
      </p>
      <button
        type="button"
        className="button button-outline"
        onClick={() => {
          void navigator.clipboard.writeText(secret).then(() => setCopied(true));
        }}
      >
        Copy the secret
      </button>
      <span role="status">{copied ? ' Copied.' : ''}</span>
    </div>
  );
}
