/**
 * Reading a WordPress export (WXR, "WordPress eXtended RSS" 1.0 to 1.2: Tools > Export) with saxes, a
 * streaming XML parser (the file is read in chunks, never held whole as text; the items found are
 * kept, without their comments). CDATA sections, entities and missing optional fields are taken as
 * WordPress writes them; a file that is not XML, or XML that is not a WordPress export, is a WxrError
 * that says what the file is instead. Decision 0029.
 */
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';

export class WxrError extends Error {
  override name = 'WxrError';
}

export interface WxrAuthor {
  login: string;
  displayName: string;
}

export interface WxrTerm {
  /** `category` or `post_tag` (other taxonomies are kept, and ignored by the import). */
  domain: string;
  nicename: string;
  name: string;
}

export interface WxrItem {
  title: string;
  link: string;
  guid: string;
  postId: number | null;
  /** post, page, attachment, nav_menu_item, ... */
  postType: string;
  /** publish, draft, future, private, pending, trash, inherit (attachments), ... */
  status: string;
  /** `2024-05-03 09:10:00` in UTC, or null (a draft never published has `0000-00-00 00:00:00`). */
  dateGmt: string | null;
  /** The same in the site's own time zone. */
  date: string | null;
  postName: string;
  parentId: number | null;
  content: string;
  excerpt: string;
  /** The author's login (dc:creator). */
  creator: string;
  terms: WxrTerm[];
  sticky: boolean;
  /** wp:postmeta by key (the last value of a key wins). */
  meta: Map<string, string>;
  /** An attachment's file URL. */
  attachmentUrl: string;
}

export interface WxrChannelCategory {
  nicename: string;
  name: string;
  /** The parent category's nicename (WordPress's address of a child is /category/parent/child/); empty for none. */
  parent: string;
}

export interface WxrExport {
  version: string;
  /** The old site's address (wp:base_blog_url, else the channel's link). */
  siteUrl: string;
  authors: WxrAuthor[];
  /** The channel's wp:category entries (the site's categories, used or not). */
  categories: WxrChannelCategory[];
  tags: WxrChannelCategory[];
  items: WxrItem[];
}

/** A WordPress date text as UTC ISO 8601, or null for none (`0000-00-00 00:00:00`, empty, unreadable). */
export function wordpressDate(text: string | null): Date | null {
  if (!text) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match || match[1] === '0000') return null;
  const at = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

function emptyItem(): WxrItem {
  return { title: '', link: '', guid: '', postId: null, postType: 'post', status: 'publish', dateGmt: null, date: null, postName: '', parentId: null, content: '', excerpt: '', creator: '', terms: [], sticky: false, meta: new Map(), attachmentUrl: '' };
}

function numberOf(text: string): number | null {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

/** Sets the field a direct child of <item> names. */
function setItemField(item: WxrItem, name: string, text: string): void {
  switch (name) {
    case 'title':
      item.title = text.trim();
      break;
    case 'link':
      item.link = text.trim();
      break;
    case 'guid':
      item.guid = text.trim();
      break;
    case 'wp:post_id':
      item.postId = numberOf(text);
      break;
    case 'wp:post_type':
      item.postType = text.trim();
      break;
    case 'wp:status':
      item.status = text.trim();
      break;
    case 'wp:post_date_gmt':
      item.dateGmt = text.trim() || null;
      break;
    case 'wp:post_date':
      item.date = text.trim() || null;
      break;
    case 'wp:post_name':
      item.postName = text.trim();
      break;
    case 'wp:post_parent':
      item.parentId = numberOf(text) || null;
      break;
    case 'content:encoded':
      item.content = text;
      break;
    case 'excerpt:encoded':
      item.excerpt = text;
      break;
    case 'dc:creator':
      item.creator = text.trim();
      break;
    case 'wp:is_sticky':
      item.sticky = text.trim() === '1';
      break;
    case 'wp:attachment_url':
      item.attachmentUrl = text.trim();
      break;
    default:
      break;
  }
}

/** Reads the WXR document from chunks of text. */
export async function readWxrChunks(chunks: AsyncIterable<string> | Iterable<string>, name = 'the file'): Promise<WxrExport> {
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  const result: WxrExport = { version: '', siteUrl: '', authors: [], categories: [], tags: [], items: [] };
  let channelLink = '';
  let item: WxrItem | null = null;
  let author: Partial<WxrAuthor> | null = null;
  let term: { nicename: string; name: string; parent: string } | null = null;
  let termKind: 'wp:category' | 'wp:tag' | null = null;
  let meta: { key: string; value: string } | null = null;
  let itemTerm: { domain: string; nicename: string } | null = null;
  let text = '';
  let failure: Error | null = null;

  parser.on('error', (error) => {
    failure ??= new WxrError(`${name} is not well-formed XML (${error.message.replace(/^.*?:\d+:\d+: /, '')}), so it is not a WordPress export: export the site again with Tools > Export in WordPress.`);
  });
  parser.on('opentag', (node) => {
    const tag = node.name;
    const parent = stack.at(-1);
    if (stack.length === 0 && tag !== 'rss') {
      failure ??= new WxrError(`${name} is XML, but its root element is <${tag}>, not <rss>: it is not a WordPress export (WXR). Export the site with Tools > Export in WordPress.`);
    }
    stack.push(tag);
    text = '';
    if (tag === 'item' && parent === 'channel') item = emptyItem();
    else if (tag === 'wp:author' && parent === 'channel') author = {};
    else if ((tag === 'wp:category' || tag === 'wp:tag') && parent === 'channel') {
      term = { nicename: '', name: '', parent: '' };
      termKind = tag;
    } else if (tag === 'wp:postmeta' && parent === 'item') meta = { key: '', value: '' };
    else if (tag === 'category' && parent === 'item') {
      const attribute = (key: string) => {
        const value = node.attributes[key];
        return typeof value === 'string' ? value : (value?.value ?? '');
      };
      itemTerm = { domain: attribute('domain'), nicename: attribute('nicename') };
    }
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('cdata', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (node) => {
    const tag = node.name;
    stack.pop();
    const parent = stack.at(-1);
    if (parent === 'channel') {
      if (tag === 'wp:wxr_version') result.version = text.trim();
      else if (tag === 'wp:base_blog_url') result.siteUrl = text.trim();
      else if (tag === 'link') channelLink = text.trim();
      else if (tag === 'item' && item) {
        result.items.push(item);
        item = null;
      } else if (tag === 'wp:author' && author) {
        if (author.login) result.authors.push({ login: author.login, displayName: author.displayName || author.login });
        author = null;
      } else if ((tag === 'wp:category' || tag === 'wp:tag') && term) {
        if (term.nicename) (termKind === 'wp:tag' ? result.tags : result.categories).push({ nicename: term.nicename, name: term.name || term.nicename, parent: term.parent });
        term = null;
      }
    } else if (parent === 'item' && item) {
      if (tag === 'wp:postmeta' && meta) {
        if (meta.key) item.meta.set(meta.key, meta.value);
        meta = null;
      } else if (tag === 'category' && itemTerm) {
        const label = text.trim();
        item.terms.push({ domain: itemTerm.domain || 'category', nicename: itemTerm.nicename || label.toLowerCase().replace(/\s+/g, '-'), name: label || itemTerm.nicename });
        itemTerm = null;
      } else setItemField(item, tag, text);
    } else if (parent === 'wp:postmeta' && meta) {
      if (tag === 'wp:meta_key') meta.key = text.trim();
      else if (tag === 'wp:meta_value') meta.value = text;
    } else if (parent === 'wp:author' && author) {
      if (tag === 'wp:author_login') author.login = text.trim();
      else if (tag === 'wp:author_display_name') author.displayName = text.trim();
    } else if ((parent === 'wp:category' || parent === 'wp:tag') && term) {
      if (tag === 'wp:category_nicename' || tag === 'wp:tag_slug') term.nicename = text.trim();
      else if (tag === 'wp:cat_name' || tag === 'wp:tag_name') term.name = text.trim();
      else if (tag === 'wp:category_parent') term.parent = text.trim();
    }
    text = '';
  });

  for await (const chunk of chunks) {
    if (failure) break;
    parser.write(chunk);
  }
  if (!failure) parser.close();
  if (failure) throw failure;
  if (!result.version) {
    throw new WxrError(`${name} is RSS, but not a WordPress export: it has no <wp:wxr_version> (a feed, perhaps). Export the site with Tools > Export in WordPress.`);
  }
  result.siteUrl = (result.siteUrl || channelLink).replace(/\/+$/, '');
  return result;
}

/** Reads the WordPress export at `file`, streamed; an unreadable file is the file system's error. */
export async function readWxrFile(file: string): Promise<WxrExport> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  return readWxrChunks(stream as AsyncIterable<string>, file);
}
