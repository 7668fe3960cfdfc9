/**
 * Post HTML from outside, made safe to render on the site: sanitize-html with an allowlist (headings,
 * paragraphs, lists, links, images, tables, blockquote, code and a few inline tags; iframes only from
 * the embeddable video hosts, exactly those the pages' CSP frame-src allows; the GFM footnote markup
 * that api/authoring/post-markdown.ts renders, with its ids held to the `footnote-*` pattern). Images
 * only from this site's uploads (a media id, a `/media/...` path, or this site's URL to one, which is
 * kept as its path): the pages' CSP would block any other, so it is removed with a warning that says to
 * upload it. Scripts, event handlers, styles, `javascript:`/`data:` URLs and everything else are
 * removed, and each kind of removal is reported so the integrator is not surprised.
 * api/services/post-media.ts then gives the uploaded images their sizes and srcset.
 */
import sanitizeHtml from 'sanitize-html';
import { MEDIA_UPLOAD_HINT } from '../../contract/blog';
import { EMBEDDABLE_VIDEO_HOSTS, MEDIA_PATH_PREFIX, mediaPath, parseMediaReference } from '../../contract/media';

/**
 * Footnotes (marked-footnote's markup: `<sup><a id="footnote-ref-1" href="#footnote-1" data-footnote-ref
 * aria-describedby="footnote-label">`, `<section class="footnotes" data-footnotes>` holding
 * `<h2 id="footnote-label">` and `<li id="footnote-1">` with back-links). The ids a post may carry are
 * held to this pattern, so a post cannot plant an id the page's own scripts or styles look for.
 */
export const FOOTNOTE_ID = /^footnote-[\w-]+$/;
/** The hidden heading of the notes: the site's class for text only screen readers get (marked-footnote says sr-only). */
export const FOOTNOTE_HEADING_CLASS = 'visually-hidden';

/** Why a footnote attribute of an allowed tag is refused, or null when it is kept. */
function footnoteAttributeRefusal(name: string, attribute: string, value: string, attribs: Record<string, string>): string | null {
  if (attribute === 'id') return FOOTNOTE_ID.test(value) ? null : `Removed id "${value}" from <${name}> (only footnote ids, footnote-..., are kept)`;
  if (name !== 'a') return null;
  const href = attribs.href ?? '';
  const pointsToNote = href.startsWith('#') && FOOTNOTE_ID.test(href.slice(1));
  if (attribute === 'data-footnote-ref' || attribute === 'data-footnote-backref') {
    return pointsToNote ? null : `Removed ${attribute} from <a> (a footnote link points to #footnote-...)`;
  }
  if (attribute === 'aria-describedby') {
    return value === 'footnote-label' && pointsToNote && attribs['data-footnote-ref'] !== undefined ? null : 'Removed aria-describedby from <a> (kept on footnote references only)';
  }
  if (attribute === 'aria-label') {
    return pointsToNote && attribs['data-footnote-backref'] !== undefined ? null : 'Removed aria-label from <a> (kept on footnote back-links only)';
  }
  return null;
}

/** The attributes of an allowed tag without the footnote attributes it may not carry. */
function withFootnoteRules(name: string, attribs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(attribs).filter(([attribute, value]) => footnoteAttributeRefusal(name, attribute, value, attribs) === null));
}

/** Video players a post may embed: contract/media.ts EMBEDDABLE_VIDEO_HOSTS, which the pages' CSP frame-src allows. */
export const ALLOWED_IFRAME_HOSTS: readonly string[] = EMBEDDABLE_VIDEO_HOSTS;

/** What a post may keep, and which elements go with their content. */
interface Allowlist {
  tags: string[];
  attributes: Record<string, string[]>;
  classes: Record<string, (string | RegExp)[]>;
  /** Attributes holding a URL, whose scheme is checked. */
  urlAttributes: string[];
  schemes: string[];
  iframeSchemes: string[];
  /** Elements dropped together with their content. */
  droppedWithContent: string[];
}

/**
 * The allowlist, built for each call: it is small next to the parsing, and lists built when the module
 * loads are out of reach of mutation testing (docs/quality.md), which this module's budget needs.
 */
function allowlist(): Allowlist {
  return {
    tags: [
      'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
      'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img', 'figure', 'figcaption',
      'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col',
      'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small',
      'abbr', 'cite', 'q', 'kbd', 'time', 'span', 'div', 'iframe', 'section',
    ],
    attributes: {
      a: ['href', 'title', 'target', 'rel', 'id', 'data-footnote-ref', 'data-footnote-backref', 'aria-describedby', 'aria-label'],
      // srcset only as post-media.ts writes it (uploads of this site); sizes, width and height it rewrites.
      img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding', 'srcset', 'sizes'],
      iframe: ['src', 'title', 'width', 'height', 'allow', 'allowfullscreen', 'loading'],
      // align: a Markdown table's column alignment (`:---:`, `---:`), as marked renders it; left, center or right only.
      th: ['colspan', 'rowspan', 'scope', 'align'],
      td: ['colspan', 'rowspan', 'align'],
      ol: ['start', 'reversed', 'type'],
      li: ['id'],
      h2: ['id', 'class'],
      section: ['class', 'data-footnotes'],
      col: ['span'],
      colgroup: ['span'],
      abbr: ['title'],
      time: ['datetime'],
      blockquote: ['cite'],
      q: ['cite'],
      code: ['class'],
      pre: ['class'],
    },
    // Regular expressions rather than `language-*` globs: sanitize-html compiles globs on every call.
    classes: { code: [/^language-.*$/], pre: [/^language-.*$/], h2: [FOOTNOTE_HEADING_CLASS], section: ['footnotes'] },
    urlAttributes: ['href', 'src', 'cite'],
    schemes: ['http', 'https', 'mailto', 'tel'],
    iframeSchemes: ['https'],
    droppedWithContent: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title', 'xmp', 'noembed', 'noframes'],
  };
}

/**
 * The source an `<img>` keeps: an uploaded image of this site as a media id or its `/media/...` path
 * (this site's absolute URL becomes the path, so stored posts do not depend on the origin); null for
 * anything else.
 */
export function mediaSource(src: string, siteUrl: string): string | null {
  const reference = parseMediaReference(src, siteUrl);
  if (!reference) return null;
  return reference.width === null || reference.extension === null ? reference.id : mediaPath(reference.id, reference.width, reference.extension);
}

/** True when every candidate of an `srcset` is a `/media/...` path (as post-media.ts writes them). */
function isMediaSrcset(srcset: string): boolean {
  const candidates = srcset.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '');
  return candidates.every((url) => url.startsWith(MEDIA_PATH_PREFIX) && parseMediaReference(url, '') !== null);
}

/** An `<img>` with only what this site shows: an upload's source (or none, so it is dropped) and a srcset of uploads. */
function keptImage(siteUrl: string, tagName: string, attribs: Record<string, string>): { tagName: string; attribs: Record<string, string> } {
  const source = attribs.src ? mediaSource(attribs.src, siteUrl) : null;
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name === 'src') {
      if (source) kept.src = source;
    } else if (name !== 'srcset' || (source && isMediaSrcset(value))) kept[name] = value;
  }
  return { tagName, attribs: kept };
}

/** A URL shown in a warning, shortened (a data: URL can be megabytes). */
function shown(url: string): string {
  const trimmed = url.trim();
  return trimmed.length > 80 ? `${trimmed.slice(0, 77)}...` : trimmed;
}


/** The scheme a browser would see in a URL attribute (control characters and spaces ignored), if any. */
function schemeOf(url: string): string | null {
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1] ?? null;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** Counts each kind of removal once per kind, so a post with 50 bad images gets one line, not 50. */
class RemovalReport {
  readonly #counts = new Map<string, number>();

  add(message: string): void {
    this.#counts.set(message, (this.#counts.get(message) ?? 0) + 1);
  }

  lines(): string[] {
    return [...this.#counts].map(([message, count]) => (count > 1 ? `${message} (${count} times)` : message));
  }
}

/** Records in `report` what sanitize-html will take from an opening tag: the tag itself, or some of its attributes. */
function inspectTag(report: RemovalReport, allow: Allowlist, siteUrl: string, name: string, attribs: Record<string, string>): void {
  if (!allow.tags.includes(name)) {
    report.add(
      allow.droppedWithContent.includes(name) ? `Removed <${name}> element and its content` : `Removed <${name}> tag (its text was kept)`,
    );
    return;
  }
  // Tags with no entry (p, strong, …) take no attributes.
  const allowed = allow.attributes[name];
  for (const [attribute, value] of Object.entries(attribs)) {
    if (/^on/i.test(attribute)) report.add(`Removed event-handler attribute ${attribute} from <${name}>`);
    else if (attribute === 'style') report.add(`Removed style attribute from <${name}> (inline styles are not allowed)`);
    else if (!allowed?.includes(attribute)) report.add(`Removed attribute ${attribute} from <${name}>`);
    else if (name === 'img' && attribute === 'src') inspectImageSource(report, siteUrl, value);
    else if (allow.urlAttributes.includes(attribute)) inspectUrl(report, allow, name, attribute, value);
    else inspectMarkupAttribute(report, siteUrl, name, attribute, value, attribs);
  }
  // A blank source is no source: the element is dropped.
  if ((name === 'img' || name === 'iframe') && !attribs.src?.trim()) report.add(`Removed <${name}> without a source`);
}

/** A URL attribute but an image's source (inspectImageSource): an unsafe scheme, a protocol-relative URL, an embed's host. */
function inspectUrl(report: RemovalReport, allow: Allowlist, name: string, attribute: string, value: string): void {
  const scheme = schemeOf(value);
  const schemes = name === 'iframe' ? allow.iframeSchemes : allow.schemes;
  if (scheme !== null && !schemes.includes(scheme)) report.add(`Removed unsafe ${scheme}: URL from <${name} ${attribute}>`);
  // A value with a scheme never starts with "//", so this is a URL without one.
  else if (/^\s*\/\//.test(value)) report.add(`Removed protocol-relative URL from <${name} ${attribute}>`);
  // An iframe's one URL attribute is its source; a blank one is reported as no source (inspectTag).
  else if (name === 'iframe' && value.trim() !== '') inspectEmbedHost(report, value);
}

/** An embed from a host that is not one of the video players a post may embed. */
function inspectEmbedHost(report: RemovalReport, src: string): void {
  const host = hostOf(src) ?? 'no host';
  if (!ALLOWED_IFRAME_HOSTS.includes(host)) {
    report.add(`Removed <iframe> from a host that is not allowed (${host}): embed videos from ${ALLOWED_IFRAME_HOSTS.join(', ')}`);
  }
}

/** An allowed attribute that holds no URL but may still go: a footnote attribute out of place, a srcset naming other images than an upload's. */
function inspectMarkupAttribute(report: RemovalReport, siteUrl: string, name: string, attribute: string, value: string, attribs: Record<string, string>): void {
  const refusal = footnoteAttributeRefusal(name, attribute, value, attribs);
  if (refusal !== null) report.add(refusal);
  // srcset is allowed on <img> only.
  else if (attribute === 'srcset' && mediaSource(attribs.src ?? '', siteUrl) !== null && !isMediaSrcset(value)) {
    report.add('Removed srcset from <img> (the server writes it for uploaded images)');
  }
}

/** An `<img src>` that is not an upload of this site is removed: an unsafe scheme as such, any other with what to do. */
function inspectImageSource(report: RemovalReport, siteUrl: string, src: string): void {
  if (src.trim() === '' || mediaSource(src, siteUrl) !== null) return;
  const scheme = schemeOf(src);
  if (scheme !== null && !['http', 'https', 'data'].includes(scheme)) report.add(`Removed unsafe ${scheme}: URL from <img src>`);
  else report.add(`Removed <img src="${shown(src)}">: it is not an image uploaded to this site; ${MEDIA_UPLOAD_HINT}`);
}

/** The alignments a table cell may keep (what a Markdown table's `:---`, `:---:` and `---:` render). */
const CELL_ALIGNMENTS = new Set(['left', 'center', 'right']);

/** A table cell's attributes with `align` only when it is left, center or right (noted otherwise). */
function withCellAlignment(report: RemovalReport, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  if (attribs.align === undefined || CELL_ALIGNMENTS.has(attribs.align)) return attribs;
  report.add('Removed attribute align from table cells: only left, center or right is kept');
  const { align: _align, ...kept } = attribs;
  return kept;
}

/**
 * The sanitize-html options of one call: the allowlist, the image rule for `siteUrl`, and a
 * callback that records in `report` what each opening tag loses. Built per call, so no call ever sees
 * another's site URL or report.
 */
function sanitizerOptions(siteUrl: string, report: RemovalReport): sanitizeHtml.IOptions {
  const allow = allowlist();
  return {
    allowedTags: allow.tags,
    allowedAttributes: allow.attributes,
    allowedClasses: allow.classes,
    allowedSchemes: allow.schemes,
    // No list for <img>: keptImage leaves it only an upload's id or /media/ path, which have no scheme.
    allowedSchemesByTag: { iframe: allow.iframeSchemes },
    allowedSchemesAppliedToAttributes: allow.urlAttributes,
    allowProtocolRelative: false,
    allowedIframeHostnames: [...ALLOWED_IFRAME_HOSTS],
    allowIframeRelativeUrls: false,
    disallowedTagsMode: 'discard',
    nonTextTags: allow.droppedWithContent,
    transformTags: {
      // A link that opens a new tab must not hand the site's window to the page it opens.
      a: (tagName, attribs) => {
        const kept = withFootnoteRules(tagName, attribs);
        return { tagName, attribs: kept.target ? { ...kept, rel: 'noopener noreferrer' } : kept };
      },
      li: (tagName, attribs) => ({ tagName, attribs: withFootnoteRules(tagName, attribs) }),
      img: (tagName, attribs) => keptImage(siteUrl, tagName, attribs),
      th: (tagName, attribs) => ({ tagName, attribs: withCellAlignment(report, attribs) }),
      td: (tagName, attribs) => ({ tagName, attribs: withCellAlignment(report, attribs) }),
      // Footnotes rendered elsewhere name the hidden-heading class sr-only; the site calls it visually-hidden.
      h2: (tagName, attribs) => {
        const kept = withFootnoteRules(tagName, attribs);
        return { tagName, attribs: kept.class === undefined ? kept : { ...kept, class: kept.class.replace(/\bsr-only\b/, FOOTNOTE_HEADING_CLASS) } };
      },
    },
    // An iframe or image whose source was removed would render as an empty box: drop it entirely.
    exclusiveFilter: (frame) => (frame.tag === 'iframe' || frame.tag === 'img') && !frame.attribs.src,
    onOpenTag: (name, attribs) => inspectTag(report, allow, siteUrl, name, attribs),
  };
}

export interface SanitizeOptions {
  /** SITE_URL: an `<img>` may name an upload by this site's absolute URL (kept as its path). */
  siteUrl?: string;
}

export interface SanitizedHtml {
  html: string;
  /** One line per kind of thing removed; empty when nothing was. */
  warnings: string[];
}

/** `html` made safe to render (see the module comment), with one warning per kind of thing removed. */
export function sanitizeContent(html: string, options: SanitizeOptions = {}): SanitizedHtml {
  const report = new RemovalReport();
  // The parser drops comments without a callback, so they are noticed here.
  if (html.includes('<!--')) report.add('Removed HTML comments');
  const clean = sanitizeHtml(html, sanitizerOptions(options.siteUrl ?? '', report));
  return { html: clean.trim(), warnings: report.lines() };
}

/**
 * True when sanitised HTML (what sanitizeContent returns) still shows something: text, an image or an
 * embed. The sanitiser escapes every `<` and `>` that is not markup, in text and in attribute values
 * alike, so removing the tags leaves exactly the text, without parsing the HTML a second time.
 */
export function hasVisibleContent(html: string): boolean {
  return /<(img|iframe)\b/i.test(html) || html.replace(/<[^>]*>/g, '').trim() !== '';
}

/**
 * `text` without the characters that break readers of a post, and whether there were any: C0 and C1
 * control characters but tab, line feed and carriage return (XML 1.0 forbids most of them, so one would
 * break /rss.xml and the sitemap for every subscriber), DEL, the non-characters U+FFFE and U+FFFF, and
 * surrogates without their pair.
 */
export function removeControlCharacters(text: string): { text: string; changed: boolean } {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
  return { text: cleaned, changed: cleaned.length !== text.length };
}

/** Plain-text fields (title, excerpt, author, tags) keep no markup at all. */
export function stripTags(text: string): { text: string; changed: boolean } {
  // Neither a tag nor a comment can start without a `<`: most fields have none.
  if (!text.includes('<')) return { text: text.trim(), changed: false };
  const stripped = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .trim();
  return { text: stripped, changed: stripped !== text.trim() };
}

/**
 * Wraps text that has no tags at all in paragraphs, one per blank-line-separated block. It goes through
 * the sanitiser afterwards like any other content, which escapes whatever needs escaping.
 */
export function paragraphsFromText(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => `<p>${block.replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}

export function hasTags(text: string): boolean {
  return /<[a-zA-Z!/]/.test(text);
}
