import { NavLink } from 'react-router';
import type { BlogCategory } from '../../../contract/categories';

/** The category filter: every category with its count of published posts. */
export function CategoryNav({ categories, total }: { categories: readonly BlogCategory[]; total: number }) {
  return (
    <nav aria-label="Blog categories" className="category-nav">
      <ul>
        <li>
          <NavLink to="/blog" end>
            All articles <span className="count">({total})</span>
          </NavLink>
        </li>
        {categories.map((category) => (
          <li key={category.slug} data-category={category.slug}>
            <NavLink to={`/blog/category/${category.slug}`}>
              {category.name} <span className="count">({category.postCount})</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
