/**
 * The home page (`/`): its sections in the order of SPEC section 2. Each section is its own file in
 * this folder and takes its words from web/content/home.ts and the other content modules.
 */
import type { Route } from './+types/route';
import { CallToAction } from '../../components/ui/CallToAction';
import { HOME_CLOSING_CTA, homeMeta } from '../../content/home';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { Benefits } from './Benefits';
import { CaseStudies } from './CaseStudies';
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

export async function loader({ context }: Route.LoaderArgs) {
  const latest = await context.blog.listPublished({ page: 1, limit: LATEST_ARTICLES_COUNT });
  return { latest: latest.posts };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  return pageMeta(config, { ...homeMeta(config), path: '/' });
};

export default function HomePage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="home-page">
      <Hero />
      <WhatIs />
      <NoahsArk />
      <TaxTrain />
      <SeedHarvest />
      <ThreeBuckets />
      <Benefits />
      <RightForYou />
      <ComparisonSection />
      <CompoundGrowth />
      <IulVsRoth />
      <IulVs401k />
      <CaseStudies />
      <HomeFaq />
      <LatestArticles posts={loaderData.latest} />
      <CallToAction id="get-started" heading={HOME_CLOSING_CTA.heading} text={HOME_CLOSING_CTA.text} />
    </div>
  );
}
