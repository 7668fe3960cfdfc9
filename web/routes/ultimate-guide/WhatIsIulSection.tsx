/** What a maximum-funded IUL is: its three parts and standard versus maximum-funded design. */
import { WHAT_IS_IUL } from '../../content/guide/overview';
import { GuideCards, GuideSection } from './GuideSection';

export function WhatIsIulSection({ title }: { title: string }) {
  const { contrast } = WHAT_IS_IUL;
  return (
    <GuideSection id={WHAT_IS_IUL.id} title={title} intro={WHAT_IS_IUL.paragraphs}>
      <GuideCards cards={WHAT_IS_IUL.cards} />
      <h3 className="guide-subheading">{contrast.title}</h3>
      <div className="guide-contrast">
        {[contrast.standard, contrast.maxFunded].map((side, index) => (
          <div key={side.heading} className={`card guide-contrast-side${index === 1 ? ' guide-contrast-featured' : ''}`}>
            <h4>{side.heading}</h4>
            <ul>
              {side.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </GuideSection>
  );
}
