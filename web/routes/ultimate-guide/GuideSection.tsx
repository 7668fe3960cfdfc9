/** The frame every guide section shares: an anchored section, its h2 and optional intro paragraphs. */
import type { ReactNode } from 'react';
import type { GuideCard } from '../../content/guide/overview';

export interface GuideSectionProps {
  id: string;
  title: string;
  intro?: readonly string[];
  /** Alternate background, to separate neighbouring sections. */
  alt?: boolean;
  children?: ReactNode;
}

export function GuideSection({ id, title, intro = [], alt = false, children }: GuideSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} className={['page-section', 'guide-section', alt ? 'section-alt' : ''].filter(Boolean).join(' ')} aria-labelledby={headingId}>
      <div className="container">
        <h2 id={headingId}>{title}</h2>
        {intro.map((paragraph) => (
          <p key={paragraph} className="guide-intro">
            {paragraph}
          </p>
        ))}
        {children}
      </div>
    </section>
  );
}

/** A grid of titled cards; numbered (an ordered list with visible numbers) when the order matters. */
export function GuideCards({ cards, numbered = false, testId }: { cards: readonly GuideCard[]; numbered?: boolean; testId?: string }) {
  const List = numbered ? 'ol' : 'ul';
  return (
    <List className={['card-grid', 'guide-cards', numbered ? 'guide-cards-numbered' : ''].filter(Boolean).join(' ')} data-testid={testId}>
      {cards.map((card, index) => (
        <li key={card.title} className="card guide-card">
          {numbered ? (
            <span className="guide-number" aria-hidden="true">
              {index + 1}
            </span>
          ) : null}
          <h3>{card.title}</h3>
          <p>{card.text}</p>
        </li>
      ))}
    </List>
  );
}
