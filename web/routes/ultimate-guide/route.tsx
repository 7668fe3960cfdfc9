/**
 * The Ultimate Guide: hero, contents (List View / Table View), the explainer sections, three
 * comparisons, common mistakes, the 8 Common Questions, Next Steps, disclosures and a closing CTA.
 * Its head carries Article and FAQPage structured data built from the same content modules.
 */
import type { Route } from './+types/route';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { CallToAction } from '../../components/ui/CallToAction';
import { GUIDE_FAQS } from '../../content/faq';
import { GUIDE_CLOSING_CTA } from '../../content/guide/closing';
import { GUIDE_DESCRIPTION, guideContents, guideHero, guideTitle, whatIsIulTitle } from '../../content/guide/overview';
import { productPaths } from '../../../contract/site-config';
import { faqPageJsonLd } from '../../seo/faq-jsonld';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { guideArticleJsonLd } from './article-jsonld';
import { CommonMistakesSection } from './CommonMistakesSection';
import { CommonQuestionsSection } from './CommonQuestionsSection';
import { ContentsSection } from './ContentsSection';
import { DisclosuresSection } from './DisclosuresSection';
import { GuideHero } from './GuideHero';
import { ImplementationSection } from './ImplementationSection';
import { IulVs401kSection } from './IulVs401kSection';
import { IulVsRothSection } from './IulVsRothSection';
import { IulVsWholeLifeSection } from './IulVsWholeLifeSection';
import { NextStepsSection } from './NextStepsSection';
import { OptimalStructureSection } from './OptimalStructureSection';
import { ProtectionFeaturesSection } from './ProtectionFeaturesSection';
import { TaxAdvantagesSection } from './TaxAdvantagesSection';
import { WhatIsIulSection } from './WhatIsIulSection';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  const path = productPaths(config).ultimateGuide;
  const url = `${config.siteUrl}${path}`;
  return pageMeta(config, {
    title: guideTitle(config),
    description: GUIDE_DESCRIPTION,
    path,
    type: 'article',
    jsonLd: [guideArticleJsonLd(config, url), faqPageJsonLd(GUIDE_FAQS, { url: `${url}#common-questions` })],
  });
};

export default function UltimateGuidePage() {
  const config = useSiteConfig();
  return (
    <div className="guide-page">
      <GuideHero copy={guideHero(config)} />
      <ContentsSection entries={guideContents(config)} />
      <WhatIsIulSection title={whatIsIulTitle(config)} />
      <TaxAdvantagesSection />
      <ProtectionFeaturesSection />
      <OptimalStructureSection />
      <ImplementationSection />
      <IulVsRothSection />
      <IulVs401kSection />
      <IulVsWholeLifeSection />
      <CommonMistakesSection />
      <CommonQuestionsSection />
      <NextStepsSection />
      <DisclosuresSection />
      <CallToAction id="guide-cta" heading={GUIDE_CLOSING_CTA.heading} text={GUIDE_CLOSING_CTA.text} />
    </div>
  );
}
