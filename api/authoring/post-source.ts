/**
 * Where a post's text sits in its file, so a finding about the title, the excerpt or the content can be
 * shown at its line and column in the file the author edits (`blogpost lint`, `validate`, `publish`)
 * rather than in the HTML the file turns into. Offsets are into the file's text as read (a BOM
 * included); front-matter values are found on their raw lines, since YAML gives values without positions.
 */

/** A stretch of the file's text: `start` inclusive, `end` exclusive. */
export interface SourceSpan {
  start: number;
  end: number;
}

/** The fields whose text the compliance rules read. */
export type SourceField = 'title' | 'excerpt' | 'content';

export interface PostFileSource {
  /**
   * The text `content` was made from (Markdown or HTML) exactly as it stands in the file, after the
   * front matter and any leading heading the conversion removed, and where it starts. None for JSON,
   * whose content is an escaped string.
   */
  body?: { start: number; text: string };
  /** Where each field's text sits: a front-matter value, the leading heading, the body, a JSON string. */
  fields: Partial<Record<SourceField, SourceSpan>>;
  /** Where each top-level key (of the front matter or the JSON object) starts. */
  keys: Record<string, number>;
}

/** A top-level `key:` line of YAML: the key starts the line. */
const TOP_LEVEL_KEY = /^([A-Za-z_][\w-]*)[ \t]*:/gm;

/** Where the next top-level key (or the end of the front matter) is: a value ends there. */
function nextTopLevelLine(matter: string, from: number): number {
  const next = /^[^\s#]/m.exec(matter.slice(from));
  return next ? from + next.index : matter.length;
}

/**
 * The keys of the raw front matter and their value spans, `matterStart` being where the front matter's
 * text starts in the file. A value runs from after `key:` to the next top-level key (so a folded or
 * quoted value over several lines is inside its span).
 */
export function frontMatterSpans(matter: string, matterStart: number): { keys: Record<string, number>; values: Record<string, SourceSpan> } {
  const keys: Record<string, number> = {};
  const values: Record<string, SourceSpan> = {};
  for (const match of matter.matchAll(TOP_LEVEL_KEY)) {
    const name = match[1] ?? '';
    if (name in keys) continue;
    const valueStart = match.index + match[0].length;
    const lineEnd = matter.indexOf('\n', valueStart);
    const end = lineEnd === -1 ? matter.length : nextTopLevelLine(matter, lineEnd + 1);
    keys[name] = matterStart + match.index;
    values[name] = { start: matterStart + valueStart + (/^[ \t]*/.exec(matter.slice(valueStart))?.[0].length ?? 0), end: matterStart + end };
  }
  return { keys, values };
}

/** The spans of a JSON post file's top-level string fields, and where its keys are (found on the raw text). */
export function jsonSpans(text: string): { keys: Record<string, number>; values: Record<string, SourceSpan> } {
  const keys: Record<string, number> = {};
  const values: Record<string, SourceSpan> = {};
  for (const match of text.matchAll(/"([A-Za-z_][\w-]*)"\s*:\s*("(?:[^"\\]|\\.)*")?/g)) {
    const name = match[1] ?? '';
    if (name in keys) continue;
    keys[name] = match.index;
    const literal = match[2];
    if (literal) values[name] = { start: match.index + match[0].length - literal.length + 1, end: match.index + match[0].length - 1 };
  }
  return { keys, values };
}
