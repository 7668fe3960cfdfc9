/**
 * Accordion as native disclosures: each item is a `<details>` whose `<summary>` holds the item's
 * heading, so the questions open and close as plain HTML before (and without) any script. All items of
 * one accordion share a `name`, which makes the browser keep at most one open; choosing the open one
 * closes it. React never controls `open` after the first render: the browser owns the toggle state.
 */
import { type ReactNode, useId } from 'react';

export interface AccordionItem {
  id: string;
  title: string;
  content: ReactNode;
}

export interface AccordionProps {
  items: readonly AccordionItem[];
  /** Id of the item open at first (rendered with `open` on the server); none when omitted. */
  defaultOpenId?: string | null;
  /** Heading level of the item titles, to fit the page outline. */
  headingLevel?: 2 | 3 | 4;
  /**
   * The panels are boxes of a capped height that scroll (the FAQ page's): each is then in the tab order
   * and named after its question, so a keyboard reaches it and scrolls it with the arrow keys (at a
   * large text size even a short answer overflows its box).
   */
  scrollingPanels?: boolean;
  className?: string;
}

/** Renders the items as an exclusive group of `<details>` elements named after this accordion's id. */
export function Accordion({ items, defaultOpenId = null, headingLevel = 3, scrollingPanels = false, className }: AccordionProps) {
  const baseId = useId();
  const groupName = `accordion-${baseId}`;
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={['accordion', className].filter(Boolean).join(' ')}>
      {items.map((item) => (
        <details key={item.id} className="accordion-item" name={groupName} open={item.id === defaultOpenId}>
          <summary className="accordion-summary">
            <Heading className="accordion-heading" id={scrollingPanels ? `${baseId}-${item.id}` : undefined}>
              {item.title}
            </Heading>
            <span className="accordion-icon" aria-hidden="true" />
          </summary>
          {scrollingPanels ? (
            <div className="accordion-panel" role="region" tabIndex={0} aria-labelledby={`${baseId}-${item.id}`}>
              {item.content}
            </div>
          ) : (
            <div className="accordion-panel">{item.content}</div>
          )}
        </details>
      ))}
    </div>
  );
}
