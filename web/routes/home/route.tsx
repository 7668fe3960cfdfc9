/**
 * The home page (`/`): its sections in the order of SPEC section 2. Each section is its own file in
 * this folder and takes its words from web/content/home.ts and the other content modules.
 */
import { data, type ShouldRevalidateFunction } from 'react-router';
import { passLoaderCacheControl, RENDERED_FOR_QUERY } from '../query-pages';
import type { Route } from './+types/route';
import { calculatorInputFromQuery } from '../../content/calculator';
import { CallToAction } from '../../components/ui/CallToAction';
import { tabFromQuery } from '../../components/ui/Tabs';
import { HOME_CLOSING_CTA, homeMeta } from '../../content/home';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { Benefits } from './Benefits';
import { CASE_STUDY_IDS, CASE_STUDY_LINK, CaseStudies } from './CaseStudies';
import { ComparisonSection } from './ComparisonSection';
import { CompoundGrowth } from './CompoundGrowth';
import { Hero } from './Hero';
import { HomeFaq } from './HomeFaq';
import { IulVs401k } from './IulVs401k';
import { IulVsRoth } from './IulVsRoth';
import { LATEST_ARTICLES_COUNT, LatestArticles } from './LatestArticles';
import { NoahsArk } from './NoahsArk';
import { RightForYou } from './RightForYou';
import { SeedHarvest } from './SeedHarvest';
import { TaxTrain } from './TaxTrain';
import { ThreeBuckets } from './ThreeBuckets';
import { WhatIs } from './WhatIs';

/**
 * The latest posts, the calculator's inputs when the visitor sent its form without JavaScript
 * (`/?annualContribution=...`; null otherwise, for the defaults), and the case study a case link chose
 * (`/?case=<id>#case-studies`; the first otherwise). A page for such a query is rendered for that
 * visitor and never kept in the server's page cache (`no-store`), so arbitrary query strings cannot
 * crowd the cached pages out; the plain home page stays cached.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const latest = await context.blog.listPublished({ page: 1, limit: LATEST_ARTICLES_COUNT });
  const params = new URL(request.url).searchParams;
  const calculator = calculatorInputFromQuery(params);
  const caseStudy = tabFromQuery(params, CASE_STUDY_LINK.query, CASE_STUDY_IDS);
  const noStore = calculator !== null || params.has(CASE_STUDY_LINK.query);
  return data({ latest: latest.posts, calculator, caseStudy }, noStore ? RENDERED_FOR_QUERY : undefined);
}

export const headers: Route.HeadersFunction = passLoaderCacheControl;

/** The calculator's inputs in an address: the only part of the query the loader's data depends on. */
function calculatorPart(url: URL): string {
  return JSON.stringify(calculatorInputFromQuery(url.searchParams));
}

/**
 * A case tab or a comparison row only writes its choice in the address: the page's data stays as it
 * is, nothing is fetched. New calculator inputs are loaded as usual.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname && calculatorPart(currentUrl) === calculatorPart(nextUrl) ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  return pageMeta(config, { ...homeMeta(config), path: '/' });
};

export default function HomePage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="home-page lazy-sections">
      <Hero />
      <WhatIs />
      <NoahsArk />
      <TaxTrain />
      <SeedHarvest />
      <ThreeBuckets />
      <Benefits />
      <RightForYou />
      <ComparisonSection />
      <CompoundGrowth calculator={loaderData.calculator} />
      <IulVsRoth />
      <IulVs401k />
      <CaseStudies selectedId={loaderData.caseStudy} />
      <HomeFaq />
      <LatestArticles posts={loaderData.latest} />
      <CallToAction id="get-started" heading={HOME_CLOSING_CTA.heading} text={HOME_CLOSING_CTA.text} />
    </div>
  );
}
