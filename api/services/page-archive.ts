/**
 * The site's own marketing pages in the advertising archive (decision 0028): at start-up the server
 * renders each (home, the guide, the FAQ, about, the SEP comparison, the legal pages) with its own
 * renderer, over HTTP to itself, and records a new version of a page only when what it shows differs
 * from the newest record of its path. What is kept is the page's `<main>` (its content: the header,
 * footer and the build's asset names, which change with every build, are not the advertisement).
 */
import { productPaths, type SiteConfig } from '../../contract/site-config';
import type { ArchiveRepository } from '../store/store';
import { textOfHtml } from './archive';

/** What rendering a path gave: its status and HTML. */
export type PageFetcher = (path: string) => Promise<{ status: number; html: string }>;

export interface PageArchiveOutcome {
  recorded: string[];
  unchanged: string[];
  /** Paths that did not render (a status but 200, or an error), with why. */
  failed: Array<{ path: string; why: string }>;
}

/** The marketing pages, the legal documents the legal index links to added as they are found. */
export function marketingPaths(config: SiteConfig): string[] {
  const paths = productPaths(config);
  return ['/', paths.ultimateGuide, '/faq', '/about-us', paths.sepComparison, '/legal'];
}

/** The content of a page: its `<main>` element (the whole body when it has none), without per-render nonces. */
export function pageContent(html: string): string {
  const main = /<main\b[\s\S]*<\/main>/i.exec(html)?.[0] ?? /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return main.replace(/\snonce="[^"]*"/g, '');
}

function titleOf(html: string, path: string): string {
  return textOfHtml(/<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '') || path;
}

/** The legal documents the legal index links to. */
function legalLinks(html: string): string[] {
  return [...new Set([...html.matchAll(/href="(\/legal\/[a-z0-9-]+)"/g)].map((match) => match[1] ?? ''))].filter(Boolean);
}

/** Renders every marketing page and appends the ones whose content changed since their newest record. */
export async function archiveSitePages(options: { fetchPage: PageFetcher; archive: ArchiveRepository; config: SiteConfig; now: () => Date }): Promise<PageArchiveOutcome> {
  const outcome: PageArchiveOutcome = { recorded: [], unchanged: [], failed: [] };
  const queue = marketingPaths(options.config);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const path = queue.shift() ?? '/';
    if (seen.has(path)) continue;
    seen.add(path);
    let page;
    try {
      page = await options.fetchPage(path);
    } catch (error) {
      outcome.failed.push({ path, why: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (page.status !== 200) {
      outcome.failed.push({ path, why: `answered ${page.status}` });
      continue;
    }
    if (path === '/legal') queue.push(...legalLinks(page.html));
    const html = pageContent(page.html);
    const record = await options.archive.appendIfChanged({
      subject: path,
      kind: 'page',
      event: 'page_changed',
      path,
      title: titleOf(page.html, path),
      html,
      text: textOfHtml(html),
      at: options.now().toISOString(),
      findings: [],
      madeBy: 'site',
      approver: null,
      approvalCode: null,
    });
    (record ? outcome.recorded : outcome.unchanged).push(path);
  }
  return outcome;
}

/** A fetcher of this server's own pages at `origin` (http://127.0.0.1:<port>). */
export function ownPages(origin: string): PageFetcher {
  return async (path) => {
    const response = await fetch(new URL(path, origin), { headers: { Accept: 'text/html', 'User-Agent': 'iul-site advertising archive' } });
    return { status: response.status, html: await response.text() };
  };
}
