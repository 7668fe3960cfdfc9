/**
 * The table of contents in two views, List View (default) and Table View; both link to the anchors.
 * The views are tab links (`?view=table#contents`), so the server renders the one asked for.
 */
import { type TabLink, Tabs } from '../../components/ui/Tabs';
import { CONTENTS_COPY, type ContentsEntry } from '../../content/guide/overview';

/** The views in order, the first the default; the address names one with `?view=`. */
export const CONTENTS_VIEWS = ['list', 'table'] as const;
export const CONTENTS_VIEW_LINK: TabLink = { query: 'view', anchor: 'contents' };

export function ContentsSection({ entries, view }: { entries: readonly ContentsEntry[]; view: string }) {
  const list = (
    <ol className="contents-list" data-testid="contents-list">
      {entries.map((entry) => (
        <li key={entry.id}>
          <a href={`#${entry.id}`}>{entry.title}</a>
          <span className="contents-summary">{entry.summary}</span>
        </li>
      ))}
    </ol>
  );
  const table = (
    <div className="table-scroll" data-testid="contents-table">
      <table>
        <caption>{CONTENTS_COPY.caption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{CONTENTS_COPY.sectionHeader}</th>
            <th scope="col">{CONTENTS_COPY.summaryHeader}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, index) => (
            <tr key={entry.id}>
              <td>{index + 1}</td>
              <th scope="row">
                <a href={`#${entry.id}`}>{entry.title}</a>
              </th>
              <td>{entry.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  return (
    <section id={CONTENTS_VIEW_LINK.anchor} className="page-section guide-contents" aria-labelledby="contents-heading">
      <div className="container">
        <h2 id="contents-heading">{CONTENTS_COPY.title}</h2>
        <Tabs
          label={CONTENTS_COPY.tabsLabel}
          defaultTabId={view}
          link={CONTENTS_VIEW_LINK}
          tabs={[
            { id: 'list', label: CONTENTS_COPY.listTab, content: list },
            { id: 'table', label: CONTENTS_COPY.tableTab, content: table },
          ]}
        />
      </div>
    </section>
  );
}
