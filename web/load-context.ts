/** What the Koa server hands every loader: the runtime site configuration and the published posts. */
import type { BlogReader } from '../contract/blog-reader';
import type { SiteConfig } from '../contract/site-config';

export interface SiteLoadContext {
  config: SiteConfig;
  blog: BlogReader;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SiteLoadContext {}
}
