/** What the Koa server hands every loader: the runtime site configuration. */
import type { SiteConfig } from './content/site-config';

export interface SiteLoadContext {
  config: SiteConfig;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SiteLoadContext {}
}
