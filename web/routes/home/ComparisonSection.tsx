/**
 * The home comparison table: IUL against five other accounts with a yes/no mark each. The living
 * benefits row is a category row; its five sub-rows are indented. Choosing a row explains it below.
 */
import { DisclosureTable } from '../../components/ui/DisclosureTable';
import { YesNo } from '../../components/ui/YesNo';
import { HOME_COMPARISON_COLUMNS, HOME_COMPARISON_ROWS, type HomeComparisonRow } from '../../content/comparisons';
import { COMPARISON_INTRO } from '../../content/home';
import { SectionHeading } from './SectionHeading';

const columns = HOME_COMPARISON_COLUMNS.map((column) => ({
  key: column.key,
  header: column.header,
  render: (row: HomeComparisonRow) => <YesNo value={row[column.key]} />,
}));

function rowClassName(row: HomeComparisonRow): string | undefined {
  if (row.isCategory) return 'row-category';
  if (row.categoryId) return 'row-sub';
  return undefined;
}

export function ComparisonSection() {
  return (
    <section id="comparison" className="page-section section-alt" aria-labelledby="comparison-title">
      <div className="container">
        <SectionHeading intro={COMPARISON_INTRO} headingId="comparison-title" />
        <p className="table-hint">{COMPARISON_INTRO.hint}</p>
        <DisclosureTable
          caption={COMPARISON_INTRO.caption}
          columns={columns}
          rows={HOME_COMPARISON_ROWS}
          rowClassName={rowClassName}
          explanationLabel="Why it matters"
          name="compare" testId="home-comparison"
        />
      </div>
    </section>
  );
}
