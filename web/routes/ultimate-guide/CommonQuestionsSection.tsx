/** The guide's 8 Common Questions; the route's FAQPage JSON-LD is built from the same GUIDE_FAQS. */
import { Accordion } from '../../components/ui/Accordion';
import { faqAccordionItems } from '../../components/ui/FaqAnswerBody';
import { GUIDE_FAQS } from '../../content/faq';
import { COMMON_QUESTIONS } from '../../content/guide/closing';
import { GuideSection } from './GuideSection';

export function CommonQuestionsSection() {
  return (
    <GuideSection id={COMMON_QUESTIONS.id} title={COMMON_QUESTIONS.title} intro={[COMMON_QUESTIONS.intro]} alt>
      <div className="guide-faq" data-testid="guide-faq">
        <Accordion items={faqAccordionItems(GUIDE_FAQS)} headingLevel={3} />
      </div>
    </GuideSection>
  );
}
