/**
 * A comparison table whose rows can be chosen to show their explanation below the table. Each row's
 * feature cell holds a real button (aria-expanded / aria-controls); one row at a time, none at
 * first, and choosing the chosen row again closes it.
 */
import { type ReactNode, useId, useState } from 'react';

export interface DisclosureRow {
  id: string;
  feature: string;
  explanation: string;
}

export interface DisclosureColumn<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
}

export interface DisclosureTableProps<Row extends DisclosureRow> {
  caption: string;
  featureHeader?: string;
  columns: ReadonlyArray<DisclosureColumn<Row>>;
  rows: readonly Row[];
  /** Extra class for a row (category rows, indented sub-rows). */
  rowClassName?: (row: Row) => string | undefined;
  /** Label before the explanation panel, e.g. "Why it matters". */
  explanationLabel?: string;
  testId?: string;
}

export function DisclosureTable<Row extends DisclosureRow>({
  caption,
  featureHeader = 'Feature',
  columns,
  rows,
  rowClassName,
  explanationLabel = 'Explanation',
  testId,
}: DisclosureTableProps<Row>) {
  const baseId = useId();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = rows.find((row) => row.id === selectedId) ?? null;
  const panelId = `${baseId}-explanation`;

  return (
    <div className="disclosure-table" data-testid={testId}>
      <div className="table-scroll">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{featureHeader}</th>
              {columns.map((column) => (
                <th scope="col" key={column.key}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const isSelected = row.id === selectedId;
              return (
                <tr
                  key={row.id}
                  data-row-id={row.id}
                  data-selected={isSelected ? 'true' : 'false'}
                  className={rowClassName?.(row)}
                >
                  <th scope="row">
                    <button
                      type="button"
                      className="row-toggle"
                      aria-expanded={isSelected}
                      aria-controls={panelId}
                      onClick={() => setSelectedId(isSelected ? null : row.id)}
                    >
                      {row.feature}
                    </button>
                  </th>
                  {columns.map((column) => (
                    <td key={column.key}>{column.render(row)}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div id={panelId} className="row-explanation" aria-live="polite" data-testid={testId ? `${testId}-explanation` : undefined}>
        {selected ? (
          <>
            <h3 className="row-explanation-title">
              {explanationLabel}: {selected.feature}
            </h3>
            <p>{selected.explanation}</p>
          </>
        ) : (
          <p className="row-explanation-hint">Select a row to see its explanation.</p>
        )}
      </div>
    </div>
  );
}
