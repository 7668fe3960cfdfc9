/**
 * Compound growth (#calculator): the quoted worked examples, verbatim, the three accelerators, and the
 * interactive calculator with a plain note on why its figures can differ from the quoted ones.
 */
import { Clock, Percent, ShieldOff } from 'lucide-react';
import type { RawCalculatorInput } from '../../content/calculator';
import { COMPOUND_GROWTH } from '../../content/home';
import { Calculator } from './Calculator';
import { SectionHeading } from './SectionHeading';

const ACCELERATOR_ICONS = [Clock, Percent, ShieldOff] as const;

/** `calculator`: the inputs the visitor sent with the form (no JavaScript), or null for the defaults. */
export function CompoundGrowth({ calculator }: { calculator: RawCalculatorInput | null }) {
  return (
    <section id="calculator" className="page-section" aria-labelledby="calculator-title">
      <div className="container">
        <SectionHeading intro={COMPOUND_GROWTH} headingId="calculator-title" />
        <figure className="compound-quote" data-testid="compound-quote">
          <figcaption>{COMPOUND_GROWTH.quoteHeading}</figcaption>
          <blockquote>
            {COMPOUND_GROWTH.examples.map((example) => (
              <p key={example.text}>{example.text}</p>
            ))}
          </blockquote>
        </figure>
        <h3 className="subheading">{COMPOUND_GROWTH.acceleratorsHeading}</h3>
        <ol className="accelerators plain-list" data-testid="accelerators">
          {COMPOUND_GROWTH.accelerators.map((accelerator, index) => {
            const Icon = ACCELERATOR_ICONS[index % ACCELERATOR_ICONS.length] ?? Clock;
            return (
              <li key={accelerator.title} className="card icon-card">
                <Icon aria-hidden="true" size={26} className="card-icon" />
                <h4>
                  {index + 1}. {accelerator.title}
                </h4>
                <p>{accelerator.text}</p>
              </li>
            );
          })}
        </ol>
        <h3 id="calculator-tool-title" className="subheading">
          {COMPOUND_GROWTH.calculatorHeading}
        </h3>
        <p className="section-text">{COMPOUND_GROWTH.calculatorIntro}</p>
        <p className="section-text calculator-note" data-testid="calculator-note">
          {COMPOUND_GROWTH.illustrationNote}
        </p>
        <Calculator headingId="calculator-tool-title" {...(calculator ? { initial: calculator } : {})} />
      </div>
    </section>
  );
}
