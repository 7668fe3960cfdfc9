/** IUL versus a Roth IRA: the shared rows in a table whose rows open one explanation at a time. */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { IUL_VS_ROTH_ROWS } from '../../content/comparisons';
import { ROTH_INTRO } from '../../content/guide/comparisons';
import { GuideSection } from './GuideSection';

export function IulVsRothSection() {
  return (
    <GuideSection id={ROTH_INTRO.id} title={ROTH_INTRO.title} intro={[ROTH_INTRO.intro]} alt>
      <DisclosureTable
        caption={ROTH_INTRO.caption}
        rows={IUL_VS_ROTH_ROWS}
        columns={[
          { key: 'iul', header: ROTH_INTRO.iulHeader, render: (row) => row.iul },
          { key: 'rothIra', header: ROTH_INTRO.otherHeader, render: (row) => row.rothIra },
        ]}
        name="vs-roth" testId="guide-roth-table"
      />
    </GuideSection>
  );
}
