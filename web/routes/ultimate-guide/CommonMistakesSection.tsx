/** The guide's further section: the mistakes that most often spoil an IUL, and how we avoid them. */
import { COMMON_MISTAKES } from '../../content/guide/closing';
import { GuideCards, GuideSection } from './GuideSection';

export function CommonMistakesSection() {
  return (
    <GuideSection id={COMMON_MISTAKES.id} title={COMMON_MISTAKES.title} intro={[COMMON_MISTAKES.intro]}>
      <GuideCards cards={COMMON_MISTAKES.mistakes} testId="common-mistakes" />
    </GuideSection>
  );
}
