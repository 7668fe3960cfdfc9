/** The FAQ page: three category tabs, each an accordion of questions, with FAQPage structured data. */
import type { Route } from './+types/faq';
import { Accordion } from '../components/ui/Accordion';
import { CallToAction } from '../components/ui/CallToAction';
import { faqAccordionItems } from '../components/ui/FaqAnswerBody';
import { Tabs } from '../components/ui/Tabs';
import { FAQ_CATEGORIES, FAQ_PAGE } from '../content/faq';
import { faqPageJsonLd } from '../seo/faq-jsonld';
import { configFromMatches, pageMeta } from '../seo/meta';
import type { PageHandle } from '../components/layout/ScrollToTopOnLoad';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  return pageMeta(config, {
    title: FAQ_PAGE.title,
    description: FAQ_PAGE.description,
    path: '/faq',
    jsonLd: [faqPageJsonLd(FAQ_CATEGORIES.flatMap((category) => category.items), { url: `${config.siteUrl}/faq` })],
  });
};

const FIRST_GENERAL_ID = FAQ_CATEGORIES[0]?.items[0]?.id ?? null;

// Arrive at the top of the page, even on a reload, unless the address asks for an anchor (see root.tsx).
export const handle: PageHandle = { scrollToTopOnLoad: true };

export default function FaqPage() {
  const tabs = FAQ_CATEGORIES.map((category) => ({
    id: category.id,
    label: category.label,
    content: (
      <>
        <h2 className="visually-hidden">{category.label}</h2>
        <p className="faq-count" data-testid={`faq-count-${category.id}`}>
          {category.items.length} {category.items.length === 1 ? 'question' : 'questions'}
        </p>
        <Accordion
          items={faqAccordionItems(category.items)}
          defaultOpenId={category.id === 'general' ? FIRST_GENERAL_ID : null}
          headingLevel={3}
        />
      </>
    ),
  }));

  return (
    <div className="faq-page">
      <section className="page-section faq-hero" aria-labelledby="faq-title">
        <div className="container faq-container">
          <p className="eyebrow">{FAQ_PAGE.eyebrow}</p>
          <h1 id="faq-title">{FAQ_PAGE.title}</h1>
          <p className="lead">{FAQ_PAGE.lead}</p>
        </div>
      </section>
      <section className="page-section faq-body" aria-label={FAQ_PAGE.questionsLabel}>
        <div className="container faq-container" data-testid="faq-tabs">
          <Tabs tabs={tabs} label={FAQ_PAGE.tabsLabel} defaultTabId="general" />
          <p className="disclaimer">{FAQ_PAGE.disclaimer}</p>
        </div>
      </section>
      <CallToAction id="faq-cta" heading={FAQ_PAGE.cta.heading} text={FAQ_PAGE.cta.text} />
    </div>
  );
}
