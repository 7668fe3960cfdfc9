import { Link } from 'react-router';

export function Pagination({ basePath, page, totalPages }: { basePath: string; page: number; totalPages: number }) {
  if (totalPages <= 1) return null;
  const href = (n: number) => (n === 1 ? basePath : `${basePath}?page=${n}`);
  return (
    <nav aria-label="Pagination" className="pagination">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          ← Newer articles
        </Link>
      ) : (
        <span />
      )}
      <span aria-current="page">
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link to={href(page + 1)} rel="next">
          Older articles →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
