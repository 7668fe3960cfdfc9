/** IUL versus whole life: two feature cards, the 8-row clickable table and the guidance box. */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { IUL_VS_WHOLE_LIFE_ROWS, WHICH_OPTION, WHOLE_LIFE_CARDS, WHOLE_LIFE_INTRO } from '../../content/guide/comparisons';
import { GuideSection } from './GuideSection';

export function IulVsWholeLifeSection() {
  return (
    <GuideSection id={WHOLE_LIFE_INTRO.id} title={WHOLE_LIFE_INTRO.title} intro={[WHOLE_LIFE_INTRO.intro]} alt>
      <div className="guide-feature-cards" data-testid="whole-life-cards">
        {WHOLE_LIFE_CARDS.map((card) => (
          <div key={card.id} className={`card guide-feature-card guide-feature-${card.id}`}>
            <h3>{card.title}</h3>
            <p className="guide-feature-summary">{card.summary}</p>
            <ul>
              {card.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <DisclosureTable
        caption={WHOLE_LIFE_INTRO.caption}
        rows={IUL_VS_WHOLE_LIFE_ROWS}
        columns={[
          { key: 'iul', header: WHOLE_LIFE_INTRO.iulHeader, render: (row) => row.iul },
          { key: 'wholeLife', header: WHOLE_LIFE_INTRO.otherHeader, render: (row) => row.wholeLife },
        ]}
        name="vs-whole-life" testId="guide-whole-life-table"
      />
      <aside className="guide-guidance" aria-labelledby="which-option-heading" data-testid="which-option">
        <h3 id="which-option-heading">{WHICH_OPTION.title}</h3>
        <p>{WHICH_OPTION.intro}</p>
        <div className="guide-guidance-options">
          {WHICH_OPTION.options.map((option) => (
            <div key={option.id}>
              <h4>{option.heading}</h4>
              <ul>
                {option.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="guide-guidance-note">{WHICH_OPTION.note}</p>
      </aside>
    </GuideSection>
  );
}
