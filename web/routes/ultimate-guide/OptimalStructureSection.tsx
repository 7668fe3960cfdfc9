/** The five numbered design choices that make a policy maximum-funded. */
import { OPTIMAL_STRUCTURE } from '../../content/guide/overview';
import { GuideCards, GuideSection } from './GuideSection';

export function OptimalStructureSection() {
  return (
    <GuideSection id={OPTIMAL_STRUCTURE.id} title={OPTIMAL_STRUCTURE.title} intro={OPTIMAL_STRUCTURE.paragraphs} alt>
      <GuideCards cards={OPTIMAL_STRUCTURE.cards} numbered testId="structure-cards" />
    </GuideSection>
  );
}
