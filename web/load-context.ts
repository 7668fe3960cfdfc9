/**
 * What the Koa server hands every loader and action: the runtime site configuration, the published
 * posts, the intake of quote requests, who is asking (for the quote request's consent record), the
 * staff area, and where errors go.
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
  /**
   * Told of every error a loader, an action or the render threw (entry.server.tsx handleError). True
   * when the server answers that failure itself (its store out of reach: its own 503 page with the
   * phone number, api/site/render.ts), so the error is not logged here as well.
   */
  failed: (error: unknown) => boolean;
  /**
   * Logs an error a loader, an action or the render threw that the server does not answer itself, with
   * the request's id (the server's logger, as every other failure is: the id on the visitor's error page
   * finds it).
   */
  logError: (error: unknown) => void;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends SiteLoadContext {}
}
