/**
 * The Ultimate Guide: hero, contents (List View / Table View, and beside the text on wide screens),
 * the explainer sections, three comparisons, common mistakes, the 8 Common Questions, Next Steps,
 * disclosures and a closing CTA.
 * Its head carries Article and FAQPage structured data built from the same content modules.
 */
import { data } from 'react-router';
import { passLoaderCacheControl, RENDERED_FOR_QUERY } from '../query-pages';
import type { Route } from './+types/route';
import { tabFromQuery } from '../../components/ui/Tabs';
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
import { CONTENTS_VIEW_LINK, CONTENTS_VIEWS, ContentsSection } from './ContentsSection';
import { DisclosuresSection } from './DisclosuresSection';
import { GuideHero } from './GuideHero';
import { ImplementationSection } from './ImplementationSection';
import { IulVs401kSection } from './IulVs401kSection';
import { IulVsRothSection } from './IulVsRothSection';
import { IulVsWholeLifeSection } from './IulVsWholeLifeSection';
import { NextStepsSection } from './NextStepsSection';
import { OptimalStructureSection } from './OptimalStructureSection';
import { ProtectionFeaturesSection } from './ProtectionFeaturesSection';
import { StickyContents } from './StickyContents';
import { TaxAdvantagesSection } from './TaxAdvantagesSection';
import { WhatIsIulSection } from './WhatIsIulSection';

/**
 * The contents view the address asks for (`?view=table`; List View otherwise). Such a page is rendered
 * for that visitor and never kept in the server's page cache (`no-store`), like the calculator's queries.
 */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const view = tabFromQuery(params, CONTENTS_VIEW_LINK.query, CONTENTS_VIEWS);
  return data({ view }, params.has(CONTENTS_VIEW_LINK.query) ? RENDERED_FOR_QUERY : undefined);
}

/** In the browser the address alone names the view: a navigation to the guide asks the server nothing. */
export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return { view: tabFromQuery(new URL(request.url).searchParams, CONTENTS_VIEW_LINK.query, CONTENTS_VIEWS) };
}

export const headers: Route.HeadersFunction = passLoaderCacheControl;

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

export default function UltimateGuidePage({ loaderData }: Route.ComponentProps) {
  const config = useSiteConfig();
  const contents = guideContents(config);
  return (
    <div className="guide-page lazy-sections">
      <GuideHero copy={guideHero(config)} />
      <ContentsSection entries={contents} view={loaderData.view} />
      <StickyContents entries={contents} />
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
