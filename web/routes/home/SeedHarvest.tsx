/** Seed versus harvest: pay tax on what you plant, or on what you reap. */
import { Sprout, Wheat } from 'lucide-react';
import { SEED_HARVEST } from '../../content/home';
import { SectionHeading } from './SectionHeading';

export function SeedHarvest() {
  return (
    <section id="seed-harvest" className="page-section section-alt" aria-labelledby="seed-harvest-title">
      <div className="container">
        <SectionHeading intro={SEED_HARVEST} headingId="seed-harvest-title" />
        <div className="seed-harvest-grid">
          {SEED_HARVEST.options.map((option) => {
            const Icon = option.preferred ? Sprout : Wheat;
            return (
              <article key={option.title} className={option.preferred ? 'card seed-card seed-card-preferred' : 'card seed-card'}>
                <Icon aria-hidden="true" size={30} className="card-icon" />
                <h3>{option.title}</h3>
                <p className="seed-examples">{option.examples}</p>
                <ul>
                  {option.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              </article>
            );
          })}
        </div>
        <p className="section-text seed-conclusion">{SEED_HARVEST.conclusion}</p>
      </div>
    </section>
  );
}
