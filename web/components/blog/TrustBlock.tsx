import type { BlogTrust } from '../../../contract/blog-reader';
import { formatPostDate } from './format';

/** "Fact-checked by" and the numbered sources of a post. */
export function TrustBlock({ trust }: { trust: BlogTrust }) {
  const { factCheckedBy, sources, lastUpdated } = trust;
  if (!factCheckedBy && sources.length === 0 && !lastUpdated) return null;
  return (
    <aside className="trust-block" aria-labelledby="trust-heading" data-testid="trust-block">
      <h2 id="trust-heading">How we checked this article</h2>
      {factCheckedBy && (
        <p>
          Fact-checked by{' '}
          {factCheckedBy.link ? (
            <a href={factCheckedBy.link} rel="nofollow noopener" target="_blank">
              {factCheckedBy.name}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : (
            <strong>{factCheckedBy.name}</strong>
          )}
          {factCheckedBy.credentials ? `, ${factCheckedBy.credentials}` : ''}
        </p>
      )}
      {lastUpdated && <p>Sources reviewed {formatPostDate(lastUpdated)}.</p>}
      {sources.length > 0 && (
        <>
          <h3>Sources</h3>
          <ol className="sources">
            {sources.map((source) => (
              <li key={source.url}>
                <a href={source.url} rel="nofollow noopener" target="_blank">
                  {source.name}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}
