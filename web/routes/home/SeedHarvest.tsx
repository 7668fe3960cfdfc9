/**
 * Seed versus harvest: pay tax on what you plant, or on what you reap. A drawing shows the section's
 * example to scale: a small bag of seed ($100,000) and, 30 years later at a hypothetical 8%, a barn of
 * grain ($1,006,266) whose picture is as many times larger in area. The conclusion below states the
 * same figures in words, so the drawing is decorative for assistive technology.
 */
import { Sprout, Wheat } from 'lucide-react';
import { SEED_HARVEST } from '../../content/home';
import { SectionHeading } from './SectionHeading';

/** The example's figures (SPEC section 1: $100,000 for 30 years at 8% gives $1,006,266). */
const SEED = 100_000;
const YEARS = 30;
const RATE = 0.08;

function dollars(value: number): string {
  return `$${Math.round(value).toLocaleString('en-US')}`;
}

/** The seed and the harvest, their areas in the ratio of the two amounts. */
function SeedHarvestDrawing() {
  const harvest = SEED * (1 + RATE) ** YEARS;
  const scale = Math.sqrt(harvest / SEED);
  const seedSize = 46;
  const barnSize = Math.round(seedSize * scale);
  const ground = 196;
  return (
    <svg className="seed-harvest-art" viewBox="0 0 640 240" width="640" height="240" aria-hidden="true" focusable="false" data-testid="seed-harvest-art">
      <path d={`M0 ${ground}H640`} stroke="#9aaabb" strokeWidth="3" />
      <g>
        <path d={`M70 ${ground}c-6-22-4-${seedSize - 6} 10-${seedSize}h${seedSize - 18}c14 6 16 ${seedSize - 28} 10 ${seedSize}z`} fill="#e6ddc8" stroke="#6b4e17" strokeWidth="2.5" />
        <path d={`M96 ${ground - seedSize}v-18m0 6c-6-8-14-8-18-4 4 6 12 8 18 4zm0-4c6-8 14-8 18-4-4 6-12 8-18 4z`} fill="#1d7a46" stroke="#1d7a46" strokeWidth="2" />
        <text x="96" y={ground + 26} textAnchor="middle" fontSize="15" fontWeight="700" fill="#072a45">
          Seed {dollars(SEED)}
        </text>
      </g>
      <g>
        <path d="M170 120h210" stroke="#8a5a00" strokeWidth="3" strokeDasharray="6 6" />
        <path d="M380 112l14 8-14 8z" fill="#8a5a00" />
        <text x="282" y="106" textAnchor="middle" fontSize="15" fill="#4a5a6a">
          {YEARS} years at a hypothetical {Math.round(RATE * 100)}%
        </text>
      </g>
      <g>
        <path d={`M${420} ${ground}v-${barnSize * 0.62}l${barnSize / 2} -${barnSize * 0.38} ${barnSize / 2} ${barnSize * 0.38}v${barnSize * 0.62}z`} fill="#b42318" />
        <path d={`M${420 + barnSize * 0.32} ${ground}v-${barnSize * 0.36}h${barnSize * 0.36}v${barnSize * 0.36}`} fill="#f5f8fb" />
        <path d={`M${420 + barnSize * 0.32} ${ground - barnSize * 0.36}l${barnSize * 0.36} ${barnSize * 0.36}m0-${barnSize * 0.36}l-${barnSize * 0.36} ${barnSize * 0.36}`} stroke="#b42318" strokeWidth="3" />
        <g fill="#f5b301">
          <ellipse cx={420 + barnSize + 30} cy={ground - 16} rx="34" ry="16" />
          <ellipse cx={420 + barnSize + 22} cy={ground - 34} rx="20" ry="12" />
        </g>
        <text x={420 + barnSize / 2 + 20} y={ground + 26} textAnchor="middle" fontSize="15" fontWeight="700" fill="#072a45">
          Harvest {dollars(harvest)}
        </text>
      </g>
    </svg>
  );
}

/** The seed-versus-harvest section of the home page. */
export function SeedHarvest() {
  return (
    <section id="seed-harvest" className="page-section section-alt" aria-labelledby="seed-harvest-title">
      <div className="container">
        <SectionHeading intro={SEED_HARVEST} headingId="seed-harvest-title" />
        <div className="seed-harvest-figure">
          <SeedHarvestDrawing />
        </div>
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
