/**
 * A WordPress post's content as this site's HTML (decision 0029): block markup (the `<!-- wp:... -->`
 * comments around plain HTML: paragraphs, headings, lists, quotes, images, galleries, embeds) and the
 * classic editor's text (wpautop: a blank line is a paragraph, a line break a <br>), with the common
 * shortcodes ([caption], [gallery], [embed], [video], [audio]) made HTML. Any other shortcode stays in
 * the text as written, so nothing is lost, and is reported by post. The result still goes through the
 * site's sanitiser (api/services/sanitize.ts), as every post does; images are resolved by the import.
 *
 * Block delimiters and shortcodes are a comment grammar and a bracket grammar inside the text, not
 * XML: WordPress itself reads both with regular expressions, and so does this module. The XML of the
 * export is read by wxr.ts with an XML parser.
 */
import { EMBEDDABLE_VIDEO_HOSTS } from '../../../contract/media';

/** An attachment of the export: its file URL and its title (alt text when it has no other). */
export interface AttachmentRef {
  url: string;
  alt: string;
  parentId: number | null;
}

export interface ConvertContext {
  /** The export's attachments by post id ([gallery ids], featured images). */
  attachments: ReadonlyMap<number, AttachmentRef>;
  /** The item's own post id (a [gallery] without ids shows its attached images). */
  postId: number | null;
}

export interface ConvertedContent {
  html: string;
  /** Shortcodes made HTML, by name (e.g. caption). */
  converted: string[];
  /** Shortcodes left in the text as written (no HTML for them here), by name, each once. */
  unconvertible: string[];
}

const BLOCK_TAG = /^<\/?(p|div|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|table|thead|tbody|tr|td|th|figure|figcaption|hr|section|iframe|address|details|summary|form|fieldset|style|script|!--)\b/i;

/** Text for an HTML attribute value or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The player a video URL embeds as (YouTube, Vimeo: the hosts the pages' CSP allows), else a link. */
export function embedHtml(url: string): string {
  const trimmed = url.trim();
  let parsed: URL | null;
  try {
    parsed = new URL(trimmed);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return `<p>${escapeHtml(trimmed)}</p>`;
  const host = parsed.hostname.replace(/^www\./, '');
  let player: string | null = null;
  let title = 'Video';
  if (host === 'youtube.com' || host === 'm.youtube.com') {
    const id = parsed.searchParams.get('v');
    if (id && /^[\w-]{6,20}$/.test(id)) player = `https://www.youtube-nocookie.com/embed/${id}`;
    title = 'YouTube video';
  } else if (host === 'youtu.be') {
    const id = parsed.pathname.slice(1);
    if (/^[\w-]{6,20}$/.test(id)) player = `https://www.youtube-nocookie.com/embed/${id}`;
    title = 'YouTube video';
  } else if (host === 'vimeo.com') {
    const id = /^\/(\d+)/.exec(parsed.pathname)?.[1];
    if (id) player = `https://player.vimeo.com/video/${id}`;
    title = 'Vimeo video';
  }
  if (player && EMBEDDABLE_VIDEO_HOSTS.some((allowed) => player.startsWith(`https://${allowed}/`))) {
    return `<figure><iframe src="${escapeHtml(player)}" title="${title}" width="560" height="315" allowfullscreen loading="lazy"></iframe></figure>`;
  }
  return `<p><a href="${escapeHtml(parsed.href)}">${escapeHtml(trimmed)}</a></p>`;
}

/** A shortcode's attributes (`a="1" b='2' c=3 bare`), as WordPress's shortcode_parse_atts reads them. */
export function shortcodeAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let position = 0;
  for (const match of text.matchAll(/([\w-]+)\s*=\s*"([^"]*)"|([\w-]+)\s*=\s*'([^']*)'|([\w-]+)\s*=\s*([^\s'"]+)|"([^"]*)"|(\S+)/g)) {
    if (match[1] !== undefined) attributes[match[1].toLowerCase()] = match[2] ?? '';
    else if (match[3] !== undefined) attributes[match[3].toLowerCase()] = match[4] ?? '';
    else if (match[5] !== undefined) attributes[match[5].toLowerCase()] = match[6] ?? '';
    else attributes[String(position++)] = match[7] ?? match[8] ?? '';
  }
  return attributes;
}

function galleryHtml(attributes: Record<string, string>, context: ConvertContext): string | null {
  const ids = (attributes.ids ?? attributes.include ?? '')
    .split(',')
    .map((id) => Number.parseInt(id.trim(), 10))
    .filter((id) => Number.isFinite(id));
  const images =
    ids.length > 0
      ? ids.map((id) => context.attachments.get(id)).filter((image): image is AttachmentRef => image !== undefined)
      : [...context.attachments.values()].filter((image) => context.postId !== null && image.parentId === context.postId);
  if (images.length === 0) return null;
  return `<figure>${images.map((image) => `<img src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt)}">`).join('')}</figure>`;
}

function captionHtml(attributes: Record<string, string>, inner: string): string | null {
  const match = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner);
  if (!match) return null;
  const caption = (attributes.caption ?? match[2] ?? '').trim();
  return `<figure>${match[1]}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
}

function mediaLink(attributes: Record<string, string>): string | null {
  const src = attributes.src ?? attributes.mp4 ?? attributes.mp3 ?? attributes.webm ?? attributes.ogg ?? attributes['0'];
  if (!src || !/^https?:\/\//i.test(src)) return null;
  return embedHtml(src);
}

const SHORTCODE = /\[(\[?)([a-zA-Z][\w-]*)((?:\s[^\]]*)?)(\/?)\](?:([\s\S]*?)\[\/\2\])?(\]?)/g;

/** The shortcodes of `text` made HTML where this module knows them; the names converted and left. */
export function convertShortcodes(text: string, context: ConvertContext): ConvertedContent {
  const converted: string[] = [];
  const unconvertible = new Set<string>();
  const html = text.replace(SHORTCODE, (whole, open: string, name: string, rawAttributes: string, selfClosing: string, inner: string | undefined, close: string) => {
    // [[name]] is WordPress's way to write a shortcode as text.
    if (open === '[' && close === ']') return whole.slice(1, -1);
    const attributes = shortcodeAttributes(rawAttributes);
    const lower = name.toLowerCase();
    let out: string | null = null;
    if (lower === 'caption' || lower === 'wp_caption') out = inner !== undefined ? captionHtml(attributes, convertShortcodes(inner, context).html) : null;
    else if (lower === 'gallery') out = galleryHtml(attributes, context);
    else if (lower === 'embed') out = inner !== undefined ? embedHtml(inner) : null;
    else if (lower === 'video' || lower === 'audio') out = mediaLink(attributes);
    if (out === null) {
      unconvertible.add(name);
      // Left as written; an enclosing one's content is converted all the same.
      if (inner === undefined || selfClosing) return whole;
      const nested = convertShortcodes(inner, context);
      for (const left of nested.unconvertible) unconvertible.add(left);
      converted.push(...nested.converted);
      return `${open}[${name}${rawAttributes}]${nested.html}[/${name}]${close}`;
    }
    converted.push(lower);
    return `${open}${out}${close}`;
  });
  return { html, converted, unconvertible: [...unconvertible] };
}

/** WordPress's wpautop, simplified: blank lines make paragraphs, single line breaks <br>, block elements stay as they are, a URL alone on its line is embedded. */
export function autop(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  if (normalized === '') return '';
  return normalized
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk) => {
      if (/^https?:\/\/\S+$/i.test(chunk)) return embedHtml(chunk);
      if (BLOCK_TAG.test(chunk)) return chunk;
      return `<p>${chunk.replace(/\n/g, '<br>\n')}</p>`;
    })
    .join('\n');
}

const BLOCK_EMBED = /<!--\s+wp:((?:core-embed\/[\w-]+)|embed|video)\s+(\{[\s\S]*?\})\s+-->([\s\S]*?)<!--\s+\/wp:\1\s+-->/g;

/** True when the content was written in the block editor. */
export function isBlockContent(content: string): boolean {
  return /<!--\s+wp:/.test(content);
}

/** Block markup as plain HTML: embeds made players, every other block's delimiters taken away (the HTML between them is the block). */
export function fromBlocks(content: string): string {
  const withEmbeds = content.replace(BLOCK_EMBED, (whole, _name: string, json: string, inner: string) => {
    let url: string;
    try {
      const attributes = JSON.parse(json) as { url?: unknown; src?: unknown };
      url = typeof attributes.url === 'string' ? attributes.url : typeof attributes.src === 'string' ? attributes.src : '';
    } catch {
      url = '';
    }
    if (!url) url = /https?:\/\/[^\s<"]+/.exec(inner)?.[0] ?? '';
    return url ? embedHtml(url) : inner;
  });
  return withEmbeds.replace(/<!--\s+\/?wp:[\s\S]*?-->/g, '').replace(/<!--more(?:\s[^>]*)?-->|<!--nextpage-->|<!--noteaser-->/g, '');
}

/** A WordPress post's content as HTML (not yet sanitised; images still the old site's URLs). */
export function convertContent(content: string, context: ConvertContext): ConvertedContent {
  const blocks = isBlockContent(content);
  const html = blocks ? fromBlocks(content) : content.replace(/<!--more(?:\s[^>]*)?-->|<!--nextpage-->|<!--noteaser-->/g, '\n\n');
  const shortcodes = convertShortcodes(html, context);
  // Classic content (and block content's freeform parts between blocks) is text with line breaks.
  const final = autop(shortcodes.html);
  return { html: final, converted: shortcodes.converted, unconvertible: shortcodes.unconvertible };
}
