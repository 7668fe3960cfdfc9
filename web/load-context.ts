/**
 * What the Koa server hands every loader and action: the runtime site configuration, the published
 * posts, the intake of quote requests, and who is asking (for the quote request's consent record).
 */
import type { BlogReader } from '../contract/blog-reader';
import type { QuoteClient, QuoteIntake } from '../contract/leads';
import type { SiteConfig } from '../contract/site-config';

export interface SiteLoadContext {
  config: SiteConfig;
  blog: BlogReader;
  quotes: QuoteIntake;
  client: QuoteClient;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SiteLoadContext {}
}
