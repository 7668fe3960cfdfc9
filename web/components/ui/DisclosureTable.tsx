/**
 * A comparison table whose rows can be chosen to show their explanation below the table: one row at a
 * time, none at first, and choosing the chosen row again closes it.
 *
 * Each row's feature is a link to the page with that row chosen (`?<name>=<row id>#<name>-explanation`,
 * the chosen row's own link leads back to none), so without JavaScript the server renders the choice
 * and the browser scrolls to its explanation. With the app running the link acts as a toggle button
 * (role, aria-expanded, Enter and Space) that changes the table in place and keeps the address in step.
 * While the app loads, the page boot script (web/client/page-boot.ts) does the same for a tapped row;
 * when the app hydrates, the table takes over the row the page shows (nothing is replayed, decision 0020).
 * Every explanation is in the HTML, only the chosen one shown. On small screens (web/styles/mobile.css) the
 * table scrolls sideways in its box with the feature column held in place, under a hint saying so.
 */
import { MoveHorizontal } from 'lucide-react';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { choiceAttributes, ROW_TOGGLE_ATTRIBUTE } from '../../client/boot-contract';
import { useRememberInAddress } from './address';

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
  /** The table's name in the address (`?<name>=<row id>`) and in its ids; unique on its page. */
  name: string;
  testId?: string;
}

/** A range of figures (8-12%, $5-15, $25,000-$100,000+): the hyphen is the only place it could break. */
const FIGURE_RANGE = /\$?\d[\d,.]*[%+]?(?:[-\u2013]\$?\d[\d,.]*[%+]?)+/g;

/** Text with each range of figures kept on one line (`.figure`), so "0-1%" never reads "0-" then "1%". */
export function wholeFigures(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(FIGURE_RANGE)) {
    parts.push(text.slice(last, match.index));
    parts.push(
      <span className="figure" key={match.index}>
        {match[0]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts;
}

function cellContent(content: ReactNode): ReactNode {
  return typeof content === 'string' ? wholeFigures(content) : content;
}

/**
 * The link of a row: the page with that row chosen (or none, for null), pointing at the explanation.
 * Only the table's own value: the rest of the address is not echoed into every row's link.
 */
function addressFor(name: string, rowId: string | null): string {
  return `${rowId === null ? '?' : `?${new URLSearchParams({ [name]: rowId }).toString()}`}#${name}-explanation`;
}

export function DisclosureTable<Row extends DisclosureRow>({
  caption,
  featureHeader = 'Feature',
  columns,
  rows,
  rowClassName,
  explanationLabel = 'Explanation',
  name,
  testId,
}: DisclosureTableProps<Row>) {
  const location = useLocation();
  const asked = new URLSearchParams(location.search).get(name);
  const [selectedId, setSelectedId] = useState<string | null>(rows.some((row) => row.id === asked) ? asked : null);
  const panelId = `${name}-explanation`;

  const remember = useRememberInAddress();
  const choose = (rowId: string | null): void => {
    setSelectedId(rowId);
    remember(name, rowId, panelId);
  };
  // The row the page shows when the app hydrates is the visitor's: the page boot script may have
  // switched it before the app loaded. Read in the commit that hydrates, in which the root route also
  // tells the boot script to stop (root.tsx), so no tap falls between the two.
  const root = useRef<HTMLDivElement>(null);
  const adoptShownRow = useEffectEvent(() => {
    const toggles = Array.from(root.current?.querySelectorAll(`[${ROW_TOGGLE_ATTRIBUTE}]`) ?? []);
    const shown = rows[toggles.findIndex((toggle) => toggle.getAttribute('aria-expanded') === 'true')]?.id ?? null;
    if (shown !== selectedId) choose(shown);
  });
  useLayoutEffect(() => adoptShownRow(), []);

  const onClick = (event: MouseEvent<HTMLAnchorElement>, rowId: string | null): void => {
    // A link opened elsewhere (new tab or window) is the browser's.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    choose(rowId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, rowId: string | null): void => {
    if (event.key !== ' ') return;
    event.preventDefault();
    choose(rowId);
  };

  return (
    <div ref={root} className="disclosure-table" data-testid={testId}>
      <p className="table-scroll-hint">
        <MoveHorizontal aria-hidden="true" size={18} /> Swipe the table sideways to see every column.
      </p>
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
              const next = isSelected ? null : row.id;
              return (
                <tr
                  key={row.id}
                  data-row-id={row.id}
                  data-selected={isSelected ? 'true' : 'false'}
                  className={rowClassName?.(row)}
                >
                  <th scope="row">
                    <a
                      href={addressFor(name, next)}
                      role="button"
                      className="row-toggle"
                      aria-expanded={isSelected}
                      aria-controls={panelId}
                      {...{ [ROW_TOGGLE_ATTRIBUTE]: `${name}-${row.id}` }}
                      {...choiceAttributes(name, row.id)}
                      onClick={(event) => onClick(event, next)}
                      onKeyDown={(event) => onKeyDown(event, next)}
                    >
                      {row.feature}
                    </a>
                  </th>
                  {columns.map((column) => (
                    <td key={column.key}>{cellContent(column.render(row))}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div id={panelId} className="row-explanation" aria-live="polite" data-testid={testId ? `${testId}-explanation` : undefined}>
        {rows.map((row) => (
          <div key={row.id} id={`${name}-${row.id}`} hidden={row.id !== selectedId}>
            <h3 className="row-explanation-title">
              {explanationLabel}: {row.feature}
            </h3>
            <p>{wholeFigures(row.explanation)}</p>
          </div>
        ))}
        <p className="row-explanation-hint" hidden={selectedId !== null}>
          Select a row to see its explanation.
        </p>
      </div>
    </div>
  );
}
