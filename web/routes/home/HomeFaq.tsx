/**
 * The home FAQ (#faq): the 19 general questions of the FAQ page in an accordion, and two links to
 * /faq that put the window at the top instantly, so the FAQ page opens at its beginning.
 */
import { Link } from 'react-router';
import { Accordion } from '../../components/ui/Accordion';
import { faqAccordionItems } from '../../components/ui/FaqAnswerBody';
import { GENERAL_FAQS } from '../../content/faq';
import { HOME_FAQ_INTRO } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const items = faqAccordionItems(GENERAL_FAQS);

function scrollToTopInstantly() {
  window.scrollTo({ top: 0, behavior: 'instant' });
}

export function HomeFaq() {
  return (
    <section id="faq" className="page-section section-alt" aria-labelledby="faq-title">
      <div className="container home-faq">
        <SectionHeading intro={HOME_FAQ_INTRO} headingId="faq-title" />
        <div className="button-row faq-top-actions">
          <Link to="/faq" className="button button-outline" data-testid="view-all-faq-button" onClick={scrollToTopInstantly}>
            {HOME_FAQ_INTRO.viewAllLabel}
          </Link>
        </div>
        <div data-testid="home-faq-list">
          <Accordion items={items} headingLevel={3} />
        </div>
        <div className="faq-more">
          <p>{HOME_FAQ_INTRO.seeMoreText}</p>
          <Link to="/faq" className="button button-primary" data-testid="see-more-faq-button" onClick={scrollToTopInstantly}>
            {HOME_FAQ_INTRO.seeMoreLabel}
          </Link>
        </div>
      </div>
    </section>
  );
}
