/** Benefits (#benefits): four numbered headline benefits and six benefit cards. */
import { CalendarOff, HeartPulse, Infinity as InfinityIcon, type LucideIcon, ShieldCheck, Unlock, Users } from 'lucide-react';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { type BenefitCard, benefitsContent } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const CARD_ICONS: Record<BenefitCard['icon'], LucideIcon> = {
  infinity: InfinityIcon,
  users: Users,
  calendar: CalendarOff,
  'heart-pulse': HeartPulse,
  unlock: Unlock,
  shield: ShieldCheck,
};

export function Benefits() {
  const content = benefitsContent(useSiteConfig());
  return (
    <section id="benefits" className="page-section section-alt" aria-labelledby="benefits-title">
      <div className="container">
        <SectionHeading intro={content} headingId="benefits-title" />
        <ol className="headline-benefits" data-testid="headline-benefits">
          {content.headline.map((benefit, index) => (
            <li key={benefit.title} className="headline-benefit">
              <span className="headline-number" aria-hidden="true">
                {index + 1}
              </span>
              <div>
                <h3>{benefit.title}</h3>
                <p>{benefit.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <h3 className="subheading">{content.cardsHeading}</h3>
        <ul className="card-grid plain-list benefit-cards" data-testid="benefit-cards">
          {content.cards.map((card) => {
            const Icon = CARD_ICONS[card.icon];
            return (
              <li key={card.title} className="card icon-card">
                <Icon aria-hidden="true" size={28} className="card-icon" />
                <h4>{card.title}</h4>
                <p>{card.text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
