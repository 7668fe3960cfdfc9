/**
 * A blog post's tables, made readable on a phone: each table of the post's HTML is wrapped in a box that
 * scrolls sideways (the page never grows wider than the screen; web/styles/blog.css draws the box and
 * mobile.css its shadow while there is more to the right), and that a keyboard reaches: `tabindex="0"`
 * puts it in the Tab order so the arrow keys scroll it, and `role="region"` with a name from the table's
 * caption or first header cell tells a screen reader what it is.
 *
 * Done as the page is rendered, so stored posts stay as their authors sent them. The HTML is the API's
 * sanitised output (api/services/sanitize.ts, sanitize-html): no `<` inside text or attribute values and
 * every tag well formed, so finding the tables needs no parser.
 */

const TABLE_TAG = /<(\/?)table\b[^>]*>/gi;
const CAPTION = /<caption\b[^>]*>([\s\S]*?)<\/caption>/i;
const HEADER_CELL = /<th\b[^>]*>([\s\S]*?)<\/th>/gi;

/** The text of an HTML fragment (its character references kept, as an attribute reads them the same way). */
function textOf(fragment: string): string {
  return fragment.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

/** What a table is about: its caption, else its first header cell with text; null when it has neither. */
export function tableSubject(tableHtml: string): string | null {
  const caption = textOf(CAPTION.exec(tableHtml)?.[1] ?? '');
  if (caption) return caption;
  for (const cell of tableHtml.matchAll(HEADER_CELL)) {
    const text = textOf(cell[1] ?? '');
    if (text) return text;
  }
  return null;
}

/** The accessible name of the box around the `number`th table (from 1). */
function regionName(tableHtml: string, number: number): string {
  const subject = tableSubject(tableHtml);
  // The text keeps its character references (`&amp;`); only a bare quote would end the attribute.
  return subject ? `Table: ${subject.replace(/"/g, '&quot;')}` : `Table ${number}`;
}

/** A header or data cell's opening tag with a column alignment as Markdown tables write it (`align="right"`). */
const ALIGNED_CELL = /<(th|td)\b([^>]*?)\salign="(left|center|right)"([^>]*)>/gi;

/**
 * The cells' `align` attributes (what the sanitiser keeps of a Markdown table's `:---:` and `---:`, and
 * gives back to `blogpost get --markdown`) as classes blog.css aligns by: `align` is obsolete in HTML,
 * and the page stays valid for the HTML checker. The cells carry no class of their own (sanitize.ts).
 */
export function alignedCellClasses(tableHtml: string): string {
  return tableHtml.replace(ALIGNED_CELL, (_, tag: string, before: string, align: string, after: string) => `<${tag}${before} class="align-${align.toLowerCase()}"${after}>`);
}

/** The post's HTML with every outermost table inside a focusable, named scroll box, its cells aligned by class. */
export function wrapPostTables(postHtml: string): string {
  let result = '';
  let copiedUpTo = 0;
  let depth = 0;
  let tableStart = 0;
  let number = 0;
  for (const tag of postHtml.matchAll(TABLE_TAG)) {
    const closing = tag[1] === '/';
    if (!closing) {
      if (depth === 0) tableStart = tag.index;
      depth += 1;
      continue;
    }
    if (depth === 0) continue;
    depth -= 1;
    if (depth > 0) continue;
    const tableEnd = tag.index + tag[0].length;
    const table = alignedCellClasses(postHtml.slice(tableStart, tableEnd));
    number += 1;
    result +=
      postHtml.slice(copiedUpTo, tableStart) +
      `<div class="table-scroll post-table" role="region" tabindex="0" aria-label="${regionName(table, number)}">${table}</div>`;
    copiedUpTo = tableEnd;
  }
  return result + postHtml.slice(copiedUpTo);
}
