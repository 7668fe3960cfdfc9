/**
 * What the Koa server hands every loader and action: the runtime site configuration, the published
 * posts, the intake of quote requests, who is asking (for the quote request's consent record), and
 * the staff area.
 */
import type { BlogReader } from '../contract/blog-reader';
import type { QuoteClient, QuoteIntake } from '../contract/leads';
import type { SiteConfig } from '../contract/site-config';
import type { StaffArea } from '../contract/staff-area';

export interface SiteLoadContext {
  config: SiteConfig;
  blog: BlogReader;
  quotes: QuoteIntake;
  client: QuoteClient;
  /** The staff area: who is signed in and what they may do (web/routes/admin/). */
  staff: StaffArea;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SiteLoadContext {}
}
