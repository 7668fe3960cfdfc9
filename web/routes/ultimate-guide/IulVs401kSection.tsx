/** IUL versus a 401(k): the shared rows in a table whose rows open one explanation at a time. */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { IUL_VS_401K_ROWS } from '../../content/comparisons';
import { FOUR_01K_INTRO } from '../../content/guide/comparisons';
import { GuideSection } from './GuideSection';

export function IulVs401kSection() {
  return (
    <GuideSection id={FOUR_01K_INTRO.id} title={FOUR_01K_INTRO.title} intro={[FOUR_01K_INTRO.intro]}>
      <DisclosureTable
        caption={FOUR_01K_INTRO.caption}
        rows={IUL_VS_401K_ROWS}
        columns={[
          { key: 'iul', header: FOUR_01K_INTRO.iulHeader, render: (row) => row.iul },
          { key: 'retirement401k', header: FOUR_01K_INTRO.otherHeader, render: (row) => row.retirement401k },
        ]}
        name="vs-401k" testId="guide-401k-table"
      />
    </GuideSection>
  );
}
