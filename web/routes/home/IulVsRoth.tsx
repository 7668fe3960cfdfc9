/** IUL vs Roth IRA (#iul-vs-roth): one row open at a time, none at first. */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { IUL_VS_ROTH_ROWS, type IulVsRothRow } from '../../content/comparisons';
import { IUL_VS_ROTH_INTRO } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const columns = [
  { key: 'iul', header: 'IUL', render: (row: IulVsRothRow) => row.iul },
  { key: 'rothIra', header: 'Roth IRA', render: (row: IulVsRothRow) => row.rothIra },
];

export function IulVsRoth() {
  return (
    <section id="iul-vs-roth" className="page-section" aria-labelledby="iul-vs-roth-title">
      <div className="container">
        <SectionHeading intro={IUL_VS_ROTH_INTRO} headingId="iul-vs-roth-title" />
        <DisclosureTable caption={IUL_VS_ROTH_INTRO.caption} columns={columns} rows={IUL_VS_ROTH_ROWS} name="vs-roth" testId="iul-vs-roth-table" />
      </div>
    </section>
  );
}
