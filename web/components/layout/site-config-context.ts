/** Components read the runtime site configuration through this hook (root loader data). */
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../../contract/site-config';

export interface RootData {
  config: SiteConfig;
  year: number;
}

export function useRootData(): RootData {
  // The root loader can only be missing while the root itself is failing; the error page then
  // still renders with the default contact details.
  return useRouteLoaderData<RootData>('root') ?? { config: DEFAULT_SITE_CONFIG, year: new Date().getFullYear() };
}

export function useSiteConfig(): SiteConfig {
  return useRootData().config;
}
