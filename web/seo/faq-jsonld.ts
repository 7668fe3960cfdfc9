/**
 * FAQPage structured data built from the same FAQ lists the pages render, so the questions and answers
 * search engines read are exactly the ones a visitor sees (answer paragraph, then its bullets).
 */
import type { FAQPage, WithContext } from 'schema-dts';
import type { FaqItem } from '../content/faq';

/** The full visible text of an answer: its paragraph followed by each bullet, as one plain string. */
export function faqAnswerText(item: FaqItem): string {
  return [item.answer, ...(item.bullets ?? [])].join(' ');
}

export function faqPageJsonLd(items: readonly FaqItem[], options: { url?: string } = {}): WithContext<FAQPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    ...(options.url ? { url: options.url } : {}),
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: faqAnswerText(item) },
    })),
  };
}
