/**
 * Builds WordPress exports (WXR 1.2, as WordPress's Tools > Export writes them) for the import tests,
 * and a site of many posts with an uploads folder of real small images (made with sharp).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

export interface WxrAuthorSpec {
  login: string;
  displayName: string;
}

export interface WxrPostSpec {
  id: number;
  title: string;
  slug: string;
  /** publish, draft, future, private, pending, trash */
  status: string;
  date: Date;
  content: string;
  excerpt?: string;
  creator: string;
  categories: string[];
  tags: string[];
  sticky?: boolean;
  thumbnailId?: number;
  type?: string;
}

export interface WxrAttachmentSpec {
  id: number;
  url: string;
  title: string;
  parentId: number;
}

export interface WxrSpec {
  siteUrl: string;
  authors: WxrAuthorSpec[];
  categories: Array<{ nicename: string; name: string; parent?: string }>;
  tags: Array<{ slug: string; name: string }>;
  posts: WxrPostSpec[];
  attachments: WxrAttachmentSpec[];
}

/** Text in a CDATA section (a `]]>` inside split as WordPress does). */
const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const wpDate = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

export function permalink(siteUrl: string, post: Pick<WxrPostSpec, 'date' | 'slug'>): string {
  const [year, month] = post.date.toISOString().slice(0, 7).split('-');
  return `${siteUrl}/${year}/${month}/${post.slug}/`;
}

export function buildWxr(spec: WxrSpec): string {
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8" ?>');
  out.push('<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">');
  out.push('<channel>', `<title>Old agency blog</title>`, `<link>${spec.siteUrl}</link>`, '<language>en-US</language>', '<wp:wxr_version>1.2</wp:wxr_version>', `<wp:base_site_url>${spec.siteUrl}</wp:base_site_url>`, `<wp:base_blog_url>${spec.siteUrl}</wp:base_blog_url>`);
  spec.authors.forEach((author, index) => {
    out.push(`<wp:author><wp:author_id>${index + 1}</wp:author_id><wp:author_login>${cdata(author.login)}</wp:author_login><wp:author_email>${cdata(`${author.login}@old.example`)}</wp:author_email><wp:author_display_name>${cdata(author.displayName)}</wp:author_display_name></wp:author>`);
  });
  spec.categories.forEach((category, index) => {
    out.push(`<wp:category><wp:term_id>${index + 1}</wp:term_id><wp:category_nicename>${cdata(category.nicename)}</wp:category_nicename><wp:category_parent>${cdata(category.parent ?? '')}</wp:category_parent><wp:cat_name>${cdata(category.name)}</wp:cat_name></wp:category>`);
  });
  spec.tags.forEach((tag, index) => {
    out.push(`<wp:tag><wp:term_id>${100 + index}</wp:term_id><wp:tag_slug>${cdata(tag.slug)}</wp:tag_slug><wp:tag_name>${cdata(tag.name)}</wp:tag_name></wp:tag>`);
  });
  const categoryName = new Map(spec.categories.map((category) => [category.nicename, category.name]));
  const tagName = new Map(spec.tags.map((tag) => [tag.slug, tag.name]));
  for (const attachment of spec.attachments) {
    out.push(
      `<item><title>${xmlText(attachment.title)}</title><link>${spec.siteUrl}/?attachment_id=${attachment.id}</link><pubDate>Mon, 01 Jan 2024 00:00:00 +0000</pubDate><dc:creator>${cdata(spec.authors[0]?.login ?? 'admin')}</dc:creator><guid isPermaLink="false">${attachment.url}</guid><description></description><content:encoded>${cdata('')}</content:encoded><excerpt:encoded>${cdata('')}</excerpt:encoded><wp:post_id>${attachment.id}</wp:post_id><wp:post_date>${cdata('2024-01-01 00:00:00')}</wp:post_date><wp:post_date_gmt>${cdata('2024-01-01 00:00:00')}</wp:post_date_gmt><wp:post_name>${cdata(`attachment-${attachment.id}`)}</wp:post_name><wp:status>${cdata('inherit')}</wp:status><wp:post_parent>${attachment.parentId}</wp:post_parent><wp:post_type>${cdata('attachment')}</wp:post_type><wp:attachment_url>${cdata(attachment.url)}</wp:attachment_url><wp:postmeta><wp:meta_key>${cdata('_wp_attachment_image_alt')}</wp:meta_key><wp:meta_value>${cdata(`${attachment.title} (alt)`)}</wp:meta_value></wp:postmeta></item>`,
    );
  }
  for (const post of spec.posts) {
    const draft = post.status === 'draft' || post.status === 'pending';
    const terms = [
      ...post.categories.map((nicename) => `<category domain="category" nicename="${xmlText(nicename)}">${cdata(categoryName.get(nicename) ?? nicename)}</category>`),
      ...post.tags.map((slug) => `<category domain="post_tag" nicename="${xmlText(slug)}">${cdata(tagName.get(slug) ?? slug)}</category>`),
    ].join('');
    const meta = post.thumbnailId ? `<wp:postmeta><wp:meta_key>${cdata('_thumbnail_id')}</wp:meta_key><wp:meta_value>${cdata(String(post.thumbnailId))}</wp:meta_value></wp:postmeta>` : '';
    const link = draft ? `${spec.siteUrl}/?p=${post.id}` : permalink(spec.siteUrl, post);
    out.push(
      `<item><title>${xmlText(post.title)}</title><link>${link}</link><pubDate>${post.date.toUTCString()}</pubDate><dc:creator>${cdata(post.creator)}</dc:creator><guid isPermaLink="false">${spec.siteUrl}/?p=${post.id}</guid><description></description><content:encoded>${cdata(post.content)}</content:encoded><excerpt:encoded>${cdata(post.excerpt ?? '')}</excerpt:encoded><wp:post_id>${post.id}</wp:post_id><wp:post_date>${cdata(wpDate(post.date))}</wp:post_date><wp:post_date_gmt>${cdata(draft ? '0000-00-00 00:00:00' : wpDate(post.date))}</wp:post_date_gmt><wp:comment_status>${cdata('open')}</wp:comment_status><wp:post_name>${cdata(draft ? '' : post.slug)}</wp:post_name><wp:status>${cdata(post.status)}</wp:status><wp:post_parent>0</wp:post_parent><wp:menu_order>0</wp:menu_order><wp:post_type>${cdata(post.type ?? 'post')}</wp:post_type><wp:post_password>${cdata('')}</wp:post_password><wp:is_sticky>${post.sticky ? 1 : 0}</wp:is_sticky>${terms}${meta}<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_content>${cdata('A reader comment: not imported.')}</wp:comment_content></wp:comment></item>`,
    );
  }
  out.push('</channel>', '</rss>', '');
  return out.join('\n');
}

/** A small JPEG of one colour, different for each `seed`. */
export async function smallJpeg(seed: number, width = 48, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: (seed * 47) % 256, g: (seed * 91) % 256, b: (seed * 13) % 256 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export const OLD_SITE = 'https://old.example';
export const IMAGE_COUNT = 10;

export interface BigSite {
  spec: WxrSpec;
  /** Post ids by what the test looks for. */
  ids: { drafts: number[]; scheduled: number; gallery: number; shortcodes: number[]; skipped: number[]; sticky: number; featured: number[] };
}

/** An image URL of the old site, as WordPress shows a resized copy of it (the uploads folder has the original). */
export const oldImage = (n: number, resized = false) => `${OLD_SITE}/wp-content/uploads/2024/05/picture-${n}${resized ? '-300x200' : ''}.jpg`;

/**
 * The export of a site with `count` posts (classic and block editor content, shortcodes, images, a
 * gallery, featured images, three authors, four categories, tags, drafts, a scheduled post, a sticky
 * one) and two more items the import skips (a private post and one in the trash); plus a page.
 */
export function bigSite(count = 300): BigSite {
  const authors = [
    { login: 'alice', displayName: 'Alice Agent' },
    { login: 'bob', displayName: 'Bob Broker' },
    { login: 'carol', displayName: 'Carol Counsel' },
  ];
  const categories = [
    { nicename: 'basics', name: 'Basics' },
    { nicename: 'retirement', name: 'Retirement', parent: 'planning' },
    { nicename: 'taxes', name: 'Taxes' },
    { nicename: 'agency-news', name: 'Agency news' },
    // A parent nobody files posts under directly.
    { nicename: 'planning', name: 'Planning' },
  ];
  const tags = Array.from({ length: 12 }, (_, n) => ({ slug: `topic-${n}`, name: `Topic ${n}` }));
  const attachments: WxrAttachmentSpec[] = Array.from({ length: IMAGE_COUNT }, (_, n) => ({ id: 5000 + n, url: oldImage(n), title: `Picture ${n}`, parentId: 0 }));
  const ids: BigSite['ids'] = { drafts: [], scheduled: 0, gallery: 0, shortcodes: [], skipped: [], sticky: 0, featured: [] };
  const posts: WxrPostSpec[] = [];
  for (let i = 0; i < count; i++) {
    const id = 100 + i;
    const date = new Date(Date.UTC(2023, 0, 1) + i * 86_400_000 + 9 * 3_600_000);
    const words = `family budget notes number ${i}`;
    let content: string;
    switch (i % 4) {
      case 0:
        content = `Classic post ${i} opens with ${words}.\n\nA second paragraph\nwith a line break.\n\n<img src="${oldImage(i % IMAGE_COUNT, true)}" alt="Picture ${i % IMAGE_COUNT}" class="alignnone size-medium" width="300" height="200" />`;
        break;
      case 1:
        content = `<!-- wp:paragraph -->\n<p>Block post ${i} about ${words}.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:heading -->\n<h2>Section of post ${i}</h2>\n<!-- /wp:heading -->\n\n<!-- wp:list -->\n<ul><li>First point</li><li>Second point</li></ul>\n<!-- /wp:list -->\n\n<!-- wp:quote -->\n<blockquote class="wp-block-quote"><p>A quoted line ${i}.</p></blockquote>\n<!-- /wp:quote -->\n\n<!-- wp:image {"id":${5000 + (i % IMAGE_COUNT)},"sizeSlug":"large"} -->\n<figure class="wp-block-image size-large"><img src="${oldImage(i % IMAGE_COUNT)}" alt="Picture ${i % IMAGE_COUNT}" class="wp-image-${5000 + (i % IMAGE_COUNT)}"/><figcaption>Caption ${i}</figcaption></figure>\n<!-- /wp:image -->`;
        break;
      case 2:
        content = `Classic post ${i} with a captioned picture, ${words}.\n\n[caption id="attachment_1" align="alignnone" width="300"]<img src="${oldImage((i + 3) % IMAGE_COUNT, true)}" alt="Captioned ${i}" width="300" height="200" /> The caption of post ${i}[/caption]\n\n[embed]https://www.youtube.com/watch?v=dQw4w9WgXcQ[/embed]`;
        if (i % 20 === 2) {
          content += `\n\nAsk us: [contact-form-7 id="${i}" title="Contact"]`;
          ids.shortcodes.push(id);
        }
        break;
      default:
        content = `<!-- wp:paragraph -->\n<p>Block post ${i} with an embed, ${words}.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:embed {"url":"https://vimeo.com/76979871","type":"video","providerNameSlug":"vimeo"} -->\n<figure class="wp-block-embed is-type-video"><div class="wp-block-embed__wrapper">\nhttps://vimeo.com/76979871\n</div></figure>\n<!-- /wp:embed -->`;
    }
    let status = 'publish';
    if (i % 50 === 7) {
      status = i % 100 === 7 ? 'draft' : 'pending';
      ids.drafts.push(id);
    }
    if (i === count - 1) {
      status = 'future';
      ids.scheduled = id;
    }
    posts.push({
      id,
      title: `Post ${i}: ${['Budget basics', 'Saving & planning', 'Family notes', 'Agency news'][i % 4]}`,
      slug: `post-${i}-${['budget-basics', 'saving-planning', 'family-notes', 'agency-news'][i % 4]}`,
      status,
      date: status === 'future' ? new Date(Date.UTC(2099, 0, 1, 9)) : date,
      content,
      ...(i % 3 === 0 ? { excerpt: `The excerpt of post ${i}.` } : {}),
      creator: authors[i % 3]?.login ?? 'alice',
      categories: [categories[i % 4]?.nicename ?? 'basics'],
      tags: [`topic-${i % 12}`, `topic-${(i + 5) % 12}`],
      ...(i === 10 ? { sticky: true } : {}),
      ...(i % 25 === 5 ? { thumbnailId: 5000 + (i % IMAGE_COUNT) } : {}),
    });
    if (i % 25 === 5) ids.featured.push(id);
  }
  ids.sticky = 110;
  // The gallery (block editor, three pictures) and a [gallery] shortcode.
  const gallery = posts[5];
  if (gallery) {
    gallery.content = `<!-- wp:paragraph -->\n<p>Our office pictures.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:gallery {"linkTo":"none"} -->\n<figure class="wp-block-gallery has-nested-images columns-3"><!-- wp:image {"id":5001} -->\n<figure class="wp-block-image"><img src="${oldImage(1)}" alt="Office 1"/></figure>\n<!-- /wp:image -->\n\n<!-- wp:image {"id":5002} -->\n<figure class="wp-block-image"><img src="${oldImage(2)}" alt="Office 2"/></figure>\n<!-- /wp:image -->\n\n<!-- wp:image {"id":5003} -->\n<figure class="wp-block-image"><img src="${oldImage(3)}" alt="Office 3"/></figure>\n<!-- /wp:image --></figure>\n<!-- /wp:gallery -->\n\nAnd the old gallery: [gallery ids="5004,5005,5006"]`;
    ids.gallery = gallery.id;
  }
  posts.push({ id: 9001, title: 'A private note', slug: 'a-private-note', status: 'private', date: new Date(Date.UTC(2024, 0, 2)), content: 'Private.', creator: 'alice', categories: ['basics'], tags: [] });
  posts.push({ id: 9002, title: 'A trashed post', slug: 'a-trashed-post', status: 'trash', date: new Date(Date.UTC(2024, 0, 3)), content: 'Trashed.', creator: 'bob', categories: ['basics'], tags: [] });
  posts.push({ id: 9003, title: 'About us page', slug: 'about', status: 'publish', date: new Date(Date.UTC(2024, 0, 3)), content: 'A page.', creator: 'bob', categories: [], tags: [], type: 'page' });
  ids.skipped = [9001, 9002];
  return { spec: { siteUrl: OLD_SITE, authors, categories, tags, posts, attachments }, ids };
}

/** Writes the uploads folder (originals only: the export names resized copies too) under `dir`. */
export async function writeUploads(dir: string): Promise<void> {
  const folder = path.join(dir, '2024/05');
  mkdirSync(folder, { recursive: true });
  for (let n = 0; n < IMAGE_COUNT; n++) writeFileSync(path.join(folder, `picture-${n}.jpg`), await smallJpeg(n + 1));
}

/** The category map the big site's import uses. */
export const BIG_SITE_CATEGORY_MAP = 'basics=insurance-basics\nretirement=retirement-planning\ntaxes=tax-benefits\nagency-news=financial-education\n';
