/** IUL vs 401(k) (#iul-vs-401k): one row open at a time, none at first. */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { IUL_VS_401K_ROWS, type IulVs401kRow } from '../../content/comparisons';
import { IUL_VS_401K_INTRO } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const columns = [
  { key: 'iul', header: 'IUL', render: (row: IulVs401kRow) => row.iul },
  { key: 'retirement401k', header: '401(k)', render: (row: IulVs401kRow) => row.retirement401k },
];

export function IulVs401k() {
  return (
    <section id="iul-vs-401k" className="page-section section-alt" aria-labelledby="iul-vs-401k-title">
      <div className="container">
        <SectionHeading intro={IUL_VS_401K_INTRO} headingId="iul-vs-401k-title" />
        <DisclosureTable caption={IUL_VS_401K_INTRO.caption} columns={columns} rows={IUL_VS_401K_ROWS} name="vs-401k" testId="iul-vs-401k-table" />
      </div>
    </section>
  );
}
