/** Noah's Ark: build the shelter before the storm. */
import { CloudRain, Landmark, Umbrella } from 'lucide-react';
import { NOAHS_ARK } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const ICONS = [Umbrella, Landmark, CloudRain] as const;

export function NoahsArk() {
  return (
    <section id="noahs-ark" className="page-section section-alt" aria-labelledby="noahs-ark-title">
      <div className="container">
        <SectionHeading intro={NOAHS_ARK} headingId="noahs-ark-title" />
        {NOAHS_ARK.paragraphs.map((paragraph) => (
          <p key={paragraph} className="section-text">
            {paragraph}
          </p>
        ))}
        <ul className="card-grid plain-list">
          {NOAHS_ARK.points.map((point, index) => {
            const Icon = ICONS[index % ICONS.length] ?? Umbrella;
            return (
              <li key={point.title} className="card icon-card">
                <Icon aria-hidden="true" size={28} className="card-icon" />
                <h3>{point.title}</h3>
                <p>{point.text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
