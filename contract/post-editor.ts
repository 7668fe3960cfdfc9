/**
 * The staff Markdown editor (/admin/posts/:id/edit, issue 40): a post's title, excerpt, category, tags
 * and Markdown body in a form; a preview rendered by the post service's own cleaning (renderer and
 * sanitiser) with the compliance findings placed at their line in the body; and a save through the
 * same service as the API (revisions, If-Match from the revision the form was opened at, the
 * compliance gate, the audit log with the staff member). api/staff/post-editor.ts does the work.
 */
import type { BlogPost } from './blog-reader';
import type { ComplianceFinding } from './compliance';

/** What the form holds: the fields a staff member edits. Line breaks in `body` are "\n". */
export interface EditorFields {
  title: string;
  excerpt: string;
  /** A category slug (contract/categories.ts). */
  category: string;
  /** Comma-separated, as typed. */
  tags: string;
  /** The Markdown after the source file's front matter, exactly as typed. */
  body: string;
}

/** A finding placed for the editor: at a line of the body, or beside the title or the excerpt, or about the whole post. */
export interface EditorFinding extends Pick<ComplianceFinding, 'rule' | 'severity' | 'message' | 'why' | 'suggestion'> {
  where: 'title' | 'excerpt' | 'body' | 'post';
  /** Line and column in the body as typed (from 1), for `where` 'body'. */
  line: number | null;
  column: number | null;
  /** The matched words, when the rule matched words. */
  text: string | null;
  /** The author's reason when the post accepts this rule. */
  accepted: string | null;
}

/** A post opened in the editor. */
export interface EditorPost {
  id: string;
  revision: number;
  status: string;
  /** When this revision was saved (ISO). */
  updatedAt: string;
  fields: EditorFields;
  /**
   * True when the post was sent as HTML only: the body is Markdown made from its HTML the way
   * `blogpost pull` makes it, and saving stores that Markdown as the post's source from then on.
   */
  fromHtml: boolean;
  findings: EditorFinding[];
}

/** The preview of what the form holds: the post as its public page would show it, and its findings. Nothing is stored. */
export type EditorPreview =
  | { ok: true; post: BlogPost; findings: EditorFinding[]; warnings: string[] }
  /** The text does not make a post yet (an empty title, a body with nothing to show, ...): what to fix. */
  | { ok: false; problems: string[]; findings: EditorFinding[] };

export type EditorSaveOutcome =
  | { kind: 'saved'; revision: number; status: string; message: string; findings: EditorFinding[] }
  /** Someone saved the post since the form was opened: nothing was stored. */
  | { kind: 'conflict'; current: { revision: number; updatedAt: string; by: string | null }; message: string }
  /** The text was refused (a problem to fix, or the compliance gate in block mode): nothing was stored. */
  | { kind: 'refused'; message: string; problems: string[]; findings: EditorFinding[] }
  | { kind: 'missing'; message: string };

/** What saving a new post came to. */
export type EditorCreateOutcome = { kind: 'created'; id: string; revision: number } | { kind: 'refused'; message: string; problems: string[]; findings: EditorFinding[] };

export interface PostEditorArea {
  /** The fields of a new post: empty, in the first category. */
  blank(): EditorFields;
  /** A new post's preview, as `preview` does for a stored one (the signed-in staff member as its author). */
  previewNew(fields: EditorFields): Promise<EditorPreview>;
  /** Creates the post as a draft written in Markdown, by the signed-in staff member (audited). */
  create(fields: EditorFields): Promise<EditorCreateOutcome>;
  /** The post as the editor opens it; null when there is no such post (or it is in the trash). */
  open(id: string): Promise<EditorPost | null>;
  /** What the fields would make, rendered and checked; nothing stored or recorded. Null: no such post. */
  preview(id: string, fields: EditorFields): Promise<EditorPreview | null>;
  /** Saves the fields as a new revision, only if the post is still at `revision`. */
  save(id: string, revision: number, fields: EditorFields): Promise<EditorSaveOutcome>;
}
