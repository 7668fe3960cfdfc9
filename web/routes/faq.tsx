/**
 * The FAQ page: three category tabs, each an accordion of questions, with FAQPage structured data.
 * The tabs are links (`/faq?tab=<category>#faq-questions`): the server renders the category asked for.
 */
import { data } from 'react-router';
import { passLoaderCacheControl, RENDERED_FOR_QUERY } from './query-pages';
import type { Route } from './+types/faq';
import { Accordion } from '../components/ui/Accordion';
import { CallToAction } from '../components/ui/CallToAction';
import { faqAccordionItems } from '../components/ui/FaqAnswerBody';
import { type TabLink, Tabs, tabFromQuery } from '../components/ui/Tabs';
import { FAQ_CATEGORIES, FAQ_PAGE } from '../content/faq';
import { faqPageJsonLd } from '../seo/faq-jsonld';
import { configFromMatches, pageMeta } from '../seo/meta';
import type { PageHandle } from '../components/layout/ScrollToTopOnLoad';
import { ReviewedBy } from '../components/ui/ReviewedBy';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  return pageMeta(config, {
    title: FAQ_PAGE.title,
    description: FAQ_PAGE.description,
    path: '/faq',
    jsonLd: [faqPageJsonLd(FAQ_CATEGORIES.flatMap((category) => category.items), { url: `${config.siteUrl}/faq` })],
  });
};

const CATEGORY_IDS = FAQ_CATEGORIES.map((category) => category.id);
const TAB_LINK: TabLink = { query: 'tab', anchor: 'faq-questions' };

/**
 * The category the address asks for (`?tab=`; General otherwise). A page for such a query is rendered
 * for that visitor and never kept in the server's page cache (`no-store`), as the home page does for
 * the calculator's inputs: arbitrary query strings cannot crowd the cached pages out.
 */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const tab = tabFromQuery(params, TAB_LINK.query, CATEGORY_IDS);
  return data({ tab }, params.has(TAB_LINK.query) ? RENDERED_FOR_QUERY : undefined);
}

/** In the browser the address alone names the category: a navigation to /faq asks the server nothing. */
export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return { tab: tabFromQuery(new URL(request.url).searchParams, TAB_LINK.query, CATEGORY_IDS) };
}

export const headers: Route.HeadersFunction = passLoaderCacheControl;

const FIRST_GENERAL_ID = FAQ_CATEGORIES[0]?.items[0]?.id ?? null;

// Arrive at the top of the page, even on a reload, unless the address asks for an anchor (see root.tsx).
export const handle: PageHandle = { scrollToTopOnLoad: true };

export default function FaqPage({ loaderData }: Route.ComponentProps) {
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
          scrollingPanels
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
          <ReviewedBy />
          <p className="lead">{FAQ_PAGE.lead}</p>
        </div>
      </section>
      <section id={TAB_LINK.anchor} className="page-section faq-body" aria-label={FAQ_PAGE.questionsLabel}>
        <div className="container faq-container" data-testid="faq-tabs">
          <Tabs tabs={tabs} label={FAQ_PAGE.tabsLabel} defaultTabId={loaderData.tab} link={TAB_LINK} />
          <p className="disclaimer">{FAQ_PAGE.disclaimer}</p>
        </div>
      </section>
      <CallToAction id="faq-cta" heading={FAQ_PAGE.cta.heading} text={FAQ_PAGE.cta.text} />
    </div>
  );
}
