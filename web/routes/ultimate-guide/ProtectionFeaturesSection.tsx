/** The floor, the cap, locked-in gains and the other protections, with their trade-offs. */
import { PROTECTION_FEATURES } from '../../content/guide/overview';
import { GuideCards, GuideSection } from './GuideSection';

export function ProtectionFeaturesSection() {
  return (
    <GuideSection id={PROTECTION_FEATURES.id} title={PROTECTION_FEATURES.title} intro={PROTECTION_FEATURES.paragraphs}>
      <GuideCards cards={PROTECTION_FEATURES.cards} />
    </GuideSection>
  );
}
