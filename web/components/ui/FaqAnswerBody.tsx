/**
 * The body of one FAQ answer (a paragraph and optional bullets) and the mapping of a FAQ list onto
 * Accordion items; the FAQ page, the Ultimate Guide and the home page render FAQ lists the same way.
 */
import type { FaqItem } from '../../content/faq';
import type { AccordionItem } from './Accordion';

export function FaqAnswerBody({ item }: { item: FaqItem }) {
  return (
    <>
      <p>{item.answer}</p>
      {item.bullets && item.bullets.length > 0 ? (
        <ul className="faq-bullets">
          {item.bullets.map((bullet) => (
            <li key={bullet}>{bullet}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function faqAccordionItems(items: readonly FaqItem[]): AccordionItem[] {
  return items.map((item) => ({ id: item.id, title: item.question, content: <FaqAnswerBody item={item} /> }));
}
