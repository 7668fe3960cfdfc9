/**
 * "Reviewed by Catherine Hartwell, CLU, ChFC on November 2, 2026": the education pages' review line,
 * placed under each page's heading. The reviewer and date come from web/content/review.ts; the reviewer's
 * role links to the About page, where the family is introduced. Plain HTML, no script.
 */
import { BadgeCheck } from 'lucide-react';
import { Link } from 'react-router';
import { reviewNote } from '../../content/review';

export function ReviewedBy({ className }: { className?: string }) {
  const note = reviewNote();
  return (
    <p className={['reviewed-by', className].filter(Boolean).join(' ')} data-testid="reviewed-by">
      <BadgeCheck aria-hidden="true" size={18} className="reviewed-by-icon" />
      <span>
        Reviewed by{' '}
        <Link to="/about-us" className="reviewed-by-name">
          {note.name}
        </Link>
        {note.credentials ? `, ${note.credentials}` : ''} on <time dateTime={note.date}>{note.dateLabel}</time>
      </span>
    </p>
  );
}
