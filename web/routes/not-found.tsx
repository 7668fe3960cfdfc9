import { data } from 'react-router';
import type { Route } from './+types/not-found';
import { NotFoundContent } from '../components/layout/NotFoundContent';
import { configFromMatches, notFoundMeta } from '../seo/meta';

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, location }) =>
  notFoundMeta(configFromMatches(matches), location.pathname);

export default function NotFound() {
  return <NotFoundContent />;
}
