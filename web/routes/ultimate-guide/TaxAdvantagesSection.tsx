/** How a maximum-funded IUL is taxed going in, while it grows, when you use it and at death. */
import { TAX_ADVANTAGES } from '../../content/guide/overview';
import { GuideCards, GuideSection } from './GuideSection';

export function TaxAdvantagesSection() {
  return (
    <GuideSection id={TAX_ADVANTAGES.id} title={TAX_ADVANTAGES.title} intro={TAX_ADVANTAGES.paragraphs} alt>
      <GuideCards cards={TAX_ADVANTAGES.cards} />
      {TAX_ADVANTAGES.note ? <p className="disclaimer guide-note">{TAX_ADVANTAGES.note}</p> : null}
    </GuideSection>
  );
}
