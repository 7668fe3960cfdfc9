/**
 * A stored post as the Markdown file `blogpost get --markdown` writes: YAML front matter with the
 * fields an author edits, then the content as GFM (turndown with the gfm plugin: ATX headings, `-`
 * bullets, fenced code, tables, footnotes back as `[^1]`; the cover image as its media id and alt text). `blogpost publish` takes the file back
 * unchanged: parsePostFile renders it to the very HTML the post holds, after the server's cleaning.
 * What Markdown cannot say exactly (an embed, a figure, an attribute Markdown has no syntax for) stays
 * in the file as the post's own HTML, which Markdown passes through.
 */
// @ts-expect-error -- @joplin/turndown-plugin-gfm ships no types; the one export used here is typed below.
import { gfm as gfmPlugin } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import type { BlogPost } from '../../contract/blog-reader';
import { FOOTNOTE_ID } from '../services/sanitize';
import { frontMatterLine } from './front-matter';

const gfm = gfmPlugin as TurndownService.Plugin;

/** The nodes turndown hands its rules: elements, with its own `isBlock` flag. */
type Node = HTMLElement & { isBlock?: boolean };

/** Attributes Markdown writes for each element it has a syntax for; any other attribute needs HTML. */
const MARKDOWN_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  P: [], H1: [], H2: [], H3: [], H4: [], H5: [], H6: [], BLOCKQUOTE: [], UL: [], OL: ['start'], LI: [], PRE: [], CODE: ['class'],
  STRONG: [], EM: [], DEL: [], BR: [], HR: [], A: ['href', 'title'], IMG: ['src', 'alt', 'title'],
  TABLE: [], THEAD: [], TBODY: [], TR: [], TH: ['align'], TD: ['align'],
};

function isFootnoteRef(node: Node): boolean {
  const link = node.firstElementChild;
  return node.nodeName === 'SUP' && node.childNodes.length === 1 && link?.nodeName === 'A' && link.hasAttribute('data-footnote-ref');
}

function isFootnoteSection(node: Node): boolean {
  return node.nodeName === 'SECTION' && node.hasAttribute('data-footnotes');
}

function inFootnotes(node: Node): boolean {
  return Boolean(node.parentNode && isFootnoteSection(node.parentNode as Node));
}

/** True when turndown's Markdown for this element would not render back to it. */
function needsHtml(node: Node): boolean {
  if (isFootnoteRef(node) || isFootnoteSection(node)) return false;
  if (node.nodeName === 'A' && node.hasAttribute('data-footnote-backref')) return false;
  if (node.nodeName === 'H2' && inFootnotes(node)) return false;
  if (node.nodeName === 'OL' && inFootnotes(node)) return false;
  if (node.nodeName === 'LI' && node.parentNode && inFootnotes(node.parentNode as Node)) return false;
  const allowed = MARKDOWN_ATTRIBUTES[node.nodeName];
  if (!allowed) return true;
  for (const attribute of Array.from(node.attributes)) {
    if (!allowed.includes(attribute.name)) return true;
    if (attribute.name === 'class' && !(node.parentNode?.nodeName === 'PRE' && /^language-\S+$/.test(attribute.value))) return true;
  }
  if (node.nodeName === 'TABLE') return !isSimpleTable(node);
  if (node.nodeName === 'CODE' && node.parentNode?.nodeName === 'PRE') return node.parentNode.childNodes.length !== 1;
  if (node.nodeName === 'PRE') return node.childNodes.length !== 1 || node.firstChild?.nodeName !== 'CODE';
  return false;
}

/** A table GFM can write: one header row, body rows of plain cells, nothing else. */
function isSimpleTable(table: Node): boolean {
  const sections = Array.from(table.children);
  const head = sections[0];
  if (!head || head.nodeName !== 'THEAD' || head.children.length !== 1) return false;
  if (sections.length > 2 || (sections[1] && sections[1].nodeName !== 'TBODY')) return false;
  const width = head.children[0]?.children.length ?? 0;
  for (const row of sections.flatMap((section) => Array.from(section.children))) {
    if (row.nodeName !== 'TR' || row.children.length !== width) return false;
    for (const cell of Array.from(row.children)) {
      if (cell.querySelector('p, ul, ol, pre, blockquote, table, h1, h2, h3, h4, h5, h6, br')) return false;
    }
  }
  return true;
}

/** Markdown syntax in text, escaped: turndown's escapes, plus what would otherwise read as HTML or an entity. */
function escapeText(escape: (text: string) => string, text: string): string {
  return escape(text)
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/&(?=#?\w+;)/g, '\\&')
    .replace(/\|/g, '\\|')
    .replace(/~/g, '\\~');
}

/** Titles compared as parsePostFile compares them with a leading heading: case and runs of spaces do not count. */
function sameTitle(a: string, b: string): boolean {
  const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return key(a) === key(b);
}

/**
 * A first `<h1>` that repeats the title: `publish` drops a leading `# Title` as a repeat of the title,
 * so this one is written as HTML, which it keeps.
 */
function isLeadingTitle(node: Node, title: string | undefined): boolean {
  if (title === undefined || node.nodeName !== 'H1' || node.previousElementSibling) return false;
  if ((node.parentNode as HTMLElement | null)?.id !== 'turndown-root') return false;
  return sameTitle(node.textContent ?? '', title);
}

/** A `<pre><code>` as a fenced block, longer fences when the code holds one; also for empty code (turndown drops blank elements). */
function fencedCode(pre: Node): string {
  const code = pre.firstChild as HTMLElement;
  const language = /^language-(\S+)$/.exec(code.getAttribute('class') ?? '')?.[1] ?? '';
  const text = code.textContent ?? '';
  const longest = Math.max(2, ...(text.match(/^`{3,}/gm) ?? []).map((fence) => fence.length));
  const fence = '`'.repeat(longest + 1);
  return `\n\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
}

function isCodeBlock(node: Node): boolean {
  return node.nodeName === 'PRE' && node.childNodes.length === 1 && node.firstChild?.nodeName === 'CODE';
}

/** The top-level elements turndown kept as HTML in its last conversion (read by htmlToMarkdown). */
const rawTopLevel = new Set<string>();
/** How many lists of the same kind come right before the top-level block being converted (set by htmlToMarkdown). */
const listsBefore = { count: 0 };

function createTurndown(title?: string): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    fence: '```',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
    // Spaces inside inline code are part of the code: kept where they are.
    preformattedCode: true,
    blankReplacement: (_content, node) => {
      const element = node as Node;
      if (isCodeBlock(element)) return fencedCode(element);
      if (element.nodeName === 'CODE' && element.textContent) return `\`${element.textContent}\``;
      return element.isBlock ? '\n\n' : '';
    },
  });
  service.use(gfm);
  const escape = service.escape.bind(service);
  service.escape = (text: string) => escapeText(escape, text);

  service.addRule('codeBlock', {
    filter: (node) => isCodeBlock(node),
    replacement: (_content, node) => fencedCode(node as Node),
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const item = node as Node;
      const list = item.parentNode as HTMLElement | null;
      // A list right after another of its kind takes the other marker, or Markdown would join the two.
      let after = (list?.parentNode as HTMLElement | null)?.id === 'turndown-root' && !list?.previousElementSibling ? listsBefore.count : 0;
      for (let sibling = list?.previousElementSibling; sibling?.nodeName === list?.nodeName; sibling = sibling?.previousElementSibling) after += 1;
      let prefix = after % 2 === 0 ? '-   ' : '*   ';
      if (list?.nodeName === 'OL') {
        const start = Number(list.getAttribute('start') ?? '1');
        prefix = `${start + Array.from(list.children).indexOf(item)}${after % 2 === 0 ? '.' : ')'}  `;
      }
      // A loose list (its items hold paragraphs) is written with blank lines between items; a tight one without.
      const loose = Array.from(item.children).some((child) => child.nodeName === 'P');
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '') + (loose ? '\n' : '');
      return prefix + text.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (item.nextSibling ? '\n' : '');
    },
  });
  service.addRule('html', {
    filter: (node) => needsHtml(node) || isLeadingTitle(node, title),
    replacement: (_content, node) => {
      const element = node as Node;
      if ((element.parentNode as HTMLElement | null)?.id === 'turndown-root') rawTopLevel.add(element.outerHTML);
      return element.isBlock ? `\n\n${element.outerHTML}\n\n` : element.outerHTML;
    },
  });
  service.addRule('footnoteRef', {
    filter: (node) => isFootnoteRef(node),
    replacement: (_content, node) => `[^${(node as Node).textContent?.trim() ?? ''}]`,
  });
  service.addRule('footnoteBackref', {
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('data-footnote-backref'),
    replacement: () => '',
  });
  service.addRule('footnotes', {
    filter: (node) => isFootnoteSection(node),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule('footnotesHeading', {
    filter: (node) => node.nodeName === 'H2' && inFootnotes(node),
    replacement: () => '',
  });
  service.addRule('footnotesList', {
    filter: (node) => node.nodeName === 'OL' && inFootnotes(node),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule('footnote', {
    filter: (node) => node.nodeName === 'LI' && Boolean(node.parentNode && inFootnotes(node.parentNode as Node)),
    replacement: (content, node) => {
      const id = (node as HTMLElement).getAttribute('id') ?? '';
      const label = FOOTNOTE_ID.test(id) ? id.slice('footnote-'.length) : String(Array.from((node as Node).parentNode?.children ?? []).indexOf(node as Element) + 1);
      const text = content.trim().replace(/[ \t]+$/gm, '').replace(/\n(?!\n|$)/g, '\n    ');
      return `[^${label}]: ${text}\n\n`;
    },
  });
  return service;
}

/** YAML for one value: JSON's double-quoted strings are YAML too, and read back exactly. */
function yamlScalar(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function frontMatter(post: BlogPost): string {
  const lines: string[] = [frontMatterLine('id', post.id), `title: ${yamlScalar(post.title)}`, `slug: ${yamlScalar(post.slug)}`, `excerpt: ${yamlScalar(post.excerpt)}`];
  lines.push(`category: ${yamlScalar(post.category.name)}`);
  if (post.tags.length > 0) lines.push(`tags: [${post.tags.map(yamlScalar).join(', ')}]`);
  // The media id (not its URL): publish sends it back as it is, and the server resolves it again.
  if (post.cover_image) lines.push(`cover_image: ${post.cover_image.id}`, `cover_image_alt: ${yamlScalar(post.cover_image.alt)}`);
  lines.push('author:', `  name: ${yamlScalar(post.author.name)}`);
  if (post.author.bio) lines.push(`  bio: ${yamlScalar(post.author.bio)}`);
  if (post.author.credentials) lines.push(`  credentials: ${yamlScalar(post.author.credentials)}`);
  // A post held for review stands for the status its author asked for (the server holds it again if need be).
  const status = post.status === 'in_review' ? (post.review?.requested_status ?? 'published') : post.status;
  lines.push(`status: ${status}`);
  const publishAt = post.status === 'in_review' ? post.review?.requested_publish_at : post.publish_at;
  if (status === 'scheduled' && publishAt) lines.push(`publish_at: ${yamlScalar(publishAt)}`);
  if (post.isNewsArticle) lines.push('isNewsArticle: true');
  if (post.trust) {
    const { factCheckedBy, sources, lastUpdated } = post.trust;
    lines.push('trust:');
    if (factCheckedBy) {
      lines.push('  factCheckedBy:', `    name: ${yamlScalar(factCheckedBy.name)}`);
      if (factCheckedBy.credentials) lines.push(`    credentials: ${yamlScalar(factCheckedBy.credentials)}`);
      if (factCheckedBy.link) lines.push(`    link: ${yamlScalar(factCheckedBy.link)}`);
    }
    if (sources.length > 0) {
      lines.push('  sources:');
      for (const source of sources) lines.push(`    - name: ${yamlScalar(source.name)}`, `      url: ${yamlScalar(source.url)}`);
    } else {
      lines.push('  sources: []');
    }
    if (lastUpdated) lines.push(`  lastUpdated: ${yamlScalar(lastUpdated)}`);
  }
  if (post.compliance && post.compliance.accept.length > 0) {
    lines.push('compliance:', '  accept:');
    for (const acceptance of post.compliance.accept) lines.push(`    - rule: ${yamlScalar(acceptance.rule)}`, `      reason: ${yamlScalar(acceptance.reason)}`);
  }
  return `---\n${lines.join('\n')}\n---\n`;
}

const VOID_ELEMENTS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);

/** The top-level parts of sanitised HTML: each element's exact text, and the text between them. */
function topLevelParts(html: string): { elements: string[]; between: string[] } {
  const elements: string[] = [];
  const between: string[] = [];
  let depth = 0;
  let start = 0;
  let textStart = 0;
  // The sanitiser escapes every `<` and `>` that is not markup, so tags are found without a parser.
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g)) {
    const at = match.index;
    const end = at + match[0].length;
    const name = (match[2] ?? '').toLowerCase();
    if (match[1]) {
      depth = Math.max(0, depth - 1);
      if (depth === 0) {
        elements.push(html.slice(start, end));
        textStart = end;
      }
    } else if (depth === 0) {
      between.push(html.slice(textStart, at));
      start = at;
      if (VOID_ELEMENTS.has(name) || match[0].endsWith('/>')) {
        elements.push(match[0]);
        textStart = end;
      } else {
        depth = 1;
      }
    } else if (!VOID_ELEMENTS.has(name) && !match[0].endsWith('/>')) {
      depth += 1;
    }
  }
  between.push(html.slice(textStart));
  return { elements, between };
}

/**
 * A post's HTML content as Markdown (see the module comment for what stays HTML). Markdown renders its
 * blocks one per line and passes an HTML block through as written, without the line break after it;
 * where the post's own line breaks between blocks differ from that, the blocks around them are kept
 * as one HTML block, which keeps them exactly.
 */
export function htmlToMarkdown(html: string, options: { title?: string } = {}): string {
  const service = createTurndown();
  const first = createTurndown(options.title);
  const { elements, between } = topLevelParts(html.trim());
  if (elements.length === 0 || between.some((text) => text.trim() !== '')) return first.turndown(html).trim();
  const blocks: { html: string; raw: boolean }[] = [];
  elements.forEach((element, index) => {
    rawTopLevel.clear();
    (index === 0 ? first : service).turndown(element);
    const raw = rawTopLevel.size > 0;
    const previous = blocks.at(-1);
    const separator = between[index] ?? '';
    if (!previous) {
      blocks.push({ html: element, raw });
      return;
    }
    const blankLine = /\n[ \t]*\n/.test(separator);
    const exact = previous.raw ? separator === '' : separator === '\n';
    if (exact && !(previous.raw && raw && separator === '')) {
      blocks.push({ html: element, raw });
    } else if (!blankLine) {
      // Kept together as one HTML block: its text, line breaks included, is passed through as it is.
      previous.html = `${previous.html}${separator}${element}`;
      previous.raw = true;
    } else {
      blocks.push({ html: element, raw });
    }
  });
  const listKind = (html: string) => /^<(ul|ol)\b/.exec(html)?.[1];
  return blocks
    .map((block, index) => {
      if (block.raw) return block.html;
      let count = 0;
      for (let before = index - 1; before >= 0 && !blocks[before]?.raw && listKind(blocks[before]?.html ?? '') === listKind(block.html) && listKind(block.html); before -= 1) count += 1;
      listsBefore.count = count;
      const markdown = (index === 0 ? first : service).turndown(block.html).trim();
      listsBefore.count = 0;
      return markdown;
    })
    .join('\n\n');
}

/** The post as a Markdown file that `blogpost publish` takes back unchanged. */
export function postToMarkdown(post: BlogPost): string {
  return `${frontMatter(post)}\n${htmlToMarkdown(post.content, { title: post.title })}\n`;
}
