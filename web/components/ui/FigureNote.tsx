/**
 * A one-line note next to a page's key figures that says what they are (typical, projected, not
 * guaranteed) and links to the page's full disclosure further down, so the qualification sits beside
 * the figure it qualifies. Copy from web/content/review.ts; a plain link, no script.
 */
import { Info } from 'lucide-react';
import { FIGURE_NOTE } from '../../content/review';

export function FigureNote({ target }: { target: string }) {
  return (
    <p className="figure-note" data-testid="figure-note">
      <Info aria-hidden="true" size={16} className="figure-note-icon" />
      <span>
        {FIGURE_NOTE.text} <a href={`#${target}`}>{FIGURE_NOTE.linkLabel}</a>
      </span>
    </p>
  );
}
