/**
 * Tabs after the WAI-ARIA Authoring Practices: a tablist with roving tabindex, arrow keys, Home and
 * End moving focus and selecting (automatic activation); each panel labelled by its tab.
 *
 * With `link`, each tab is a link to the page with that tab chosen (`?<query>=<id>#<anchor>`), which
 * the route's loader reads (`tabFromQuery`) and the server renders: the tabs work before and without
 * JavaScript. While the app loads, the page boot script (web/client/page-boot.ts) shows a tapped tab
 * at once and writes it in the address; when the app hydrates, the tabs take over the tab the page
 * shows (nothing is replayed, decision 0020). Once hydrated, a click selects without leaving the page
 * and writes the choice in the address (a replace through the router: no new history entry, no
 * scrolling, no request for a route whose loader runs in the browser).
 * Until then every tab link stays in the tab order, so a keyboard without script reaches them all.
 */
import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffectEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { choiceAttributes } from '../../client/boot-contract';
import { useRememberInAddress } from './address';
import { useHydrated } from './hydrated';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/** The address that names the chosen tab: the query parameter and the anchor the page scrolls to. */
export interface TabLink {
  query: string;
  anchor: string;
}

export interface TabsProps {
  tabs: readonly TabItem[];
  label: string;
  /** The tab chosen at first; when it changes (another address), the tabs follow it. */
  defaultTabId?: string;
  /** Controlled use: the selected tab id and its setter. */
  selectedId?: string;
  onSelect?: (id: string) => void;
  /** Tabs as links to server-rendered states of the page (see the module comment). */
  link?: TabLink;
  className?: string;
}

/**
 * The tab named by `query` in the address, when it is one of `ids`; otherwise the first id (the
 * default). Route loaders call it so the server renders the tab a link asked for.
 */
export function tabFromQuery(searchParams: URLSearchParams, query: string, ids: readonly string[]): string {
  const asked = searchParams.get(query);
  return asked !== null && ids.includes(asked) ? asked : (ids[0] ?? '');
}

/**
 * The link of one tab: the page with this tab chosen, and the anchor. Only the tab's own value: the
 * rest of the address (a visitor's calculator inputs, anything typed into it) is not echoed into every link.
 */
export function tabHref(link: TabLink, id: string): string {
  return `?${new URLSearchParams({ [link.query]: id }).toString()}#${link.anchor}`;
}

/** A click that opens the link elsewhere (new tab or window) is left to the browser. */
function opensElsewhere(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

export function Tabs({ tabs, label, defaultTabId, selectedId, onSelect, link, className }: TabsProps) {
  const baseId = useId();
  const hydrated = useHydrated();
  const initial = defaultTabId ?? tabs[0]?.id ?? '';
  // The visitor's choice holds until the page's default changes (a navigation to another `?tab=`).
  const [own, setOwn] = useState({ from: initial, id: initial });
  const selected = selectedId ?? (own.from === initial ? own.id : initial);
  const refs = useRef(new Map<string, HTMLElement>());
  const remember = useRememberInAddress();
  const rememberInAddress = (id: string): void => {
    if (link) remember(link.query, id, link.anchor);
  };

  const select = (id: string) => {
    setOwn({ from: initial, id });
    rememberInAddress(id);
    onSelect?.(id);
  };

  // The tab the page shows when the app hydrates is the visitor's: the page boot script may have
  // switched it before the app loaded. Read in the commit that hydrates, in which the root route also
  // tells the boot script to stop (root.tsx), so no tap falls between the two.
  const root = useRef<HTMLDivElement>(null);
  const adoptShownTab = useEffectEvent(() => {
    const shown = Array.from(root.current?.querySelectorAll(':scope > [role="tablist"] > [role="tab"]') ?? []);
    const tab = tabs[shown.findIndex((element) => element.getAttribute('aria-selected') === 'true')];
    if (tab && tab.id !== selected) select(tab.id);
  });
  useLayoutEffect(() => adoptShownTab(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last ? 0 : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0 ? last : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const tab = tabs[target];
    if (!tab) return;
    select(tab.id);
    refs.current.get(tab.id)?.focus();
  };

  const tabProps = (tab: TabItem, index: number) => {
    const isSelected = tab.id === selected;
    return {
      ref: (el: HTMLElement | null) => {
        if (el) refs.current.set(tab.id, el);
        else refs.current.delete(tab.id);
      },
      role: 'tab',
      id: `${baseId}-tab-${tab.id}`,
      'aria-selected': isSelected,
      'aria-controls': `${baseId}-panel-${tab.id}`,
      // Links keep their place in the tab order until the arrow keys work (see the module comment).
      tabIndex: link && !hydrated ? undefined : isSelected ? 0 : -1,
      className: 'tab',
      'data-tab-id': tab.id,
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => onKeyDown(event, index),
    } as const;
  };

  return (
    <div ref={root} className={['tabs', className].filter(Boolean).join(' ')}>
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((tab, index) =>
          link ? (
            <a
              key={tab.id}
              {...tabProps(tab, index)}
              {...choiceAttributes(link.query, tab.id)}
              href={tabHref(link, tab.id)}
              onClick={(event) => {
                if (opensElsewhere(event)) return;
                event.preventDefault();
                select(tab.id);
              }}
            >
              {tab.label}
            </a>
          ) : (
            <button key={tab.id} {...tabProps(tab, index)} type="button" onClick={() => select(tab.id)}>
              {tab.label}
            </button>
          ),
        )}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          tabIndex={0}
          className="tab-panel"
          data-tab-id={tab.id}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
