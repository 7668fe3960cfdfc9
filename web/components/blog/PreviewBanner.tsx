/**
 * The banner over a preview of a post that is not public: what its status is, in words a reader of the
 * preview understands, and (on the staff page) where to go next. The post under it is rendered by the
 * post page's own component (web/routes/blog/post.tsx PostPage).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PostPreview } from '../../../contract/post-preview';
import { formatPostDate } from './format';

/** "November 22, 2026 at 3:00 PM UTC": written out by hand, as the post dates are (format.ts), the same on server and browser. */
export function previewTime(iso: string): string {
  const date = new Date(iso);
  const hours = date.getUTCHours();
  return `${formatPostDate(iso)} at ${hours % 12 === 0 ? 12 : hours % 12}:${String(date.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'} UTC`;
}

/** The status line: "Draft: not public", "Scheduled for ...", "Held for review". */
export function previewStatus(preview: Pick<PostPreview, 'status' | 'publishAt' | 'deletedAt'>): string {
  if (preview.deletedAt) return 'In the trash: not public';
  if (preview.status === 'scheduled') return preview.publishAt ? `Scheduled for ${previewTime(preview.publishAt)}: not public until then` : 'Scheduled: not public yet';
  if (preview.status === 'in_review') return 'Held for review: not public until a reviewer approves it';
  if (preview.status === 'published') return 'Published: this is the page readers see';
  return 'Draft: not public';
}

export function PreviewBanner({ heading, preview, children }: { heading: string; preview: PostPreview; children?: ReactNode }) {
  return (
    <aside className="preview-banner" aria-labelledby="preview-banner-title" data-testid="preview-banner">
      <div className="narrow">
        <p id="preview-banner-title" className="preview-banner-title">
          <strong>{heading}</strong> {previewStatus(preview)}.
        </p>
        {children}
      </div>
    </aside>
  );
}

/** Links back to the staff list (and the review page of a held post). */
export function StaffPreviewLinks({ preview }: { preview: PostPreview }) {
  const { post } = preview;
  return (
    <p>
      <Link to="/admin/posts">Back to the posts</Link>
      {preview.status === 'in_review' && !preview.deletedAt ? (
        <>
          {' · '}
          <Link to={`/admin/review/${encodeURIComponent(post.id)}`}>Review this post</Link>
        </>
      ) : null}
      {preview.status === 'published' && !preview.deletedAt ? (
        <>
          {' · '}
          <Link to={`/blog/${post.slug}`}>Its public page</Link>
        </>
      ) : null}
    </p>
  );
}
