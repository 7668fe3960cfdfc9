/**
 * Tabs after the WAI-ARIA Authoring Practices: a tablist with roving tabindex, arrow keys, Home and
 * End moving focus and selecting (automatic activation); each panel labelled by its tab.
 */
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
}

export interface TabsProps {
  tabs: readonly TabItem[];
  label: string;
  defaultTabId?: string;
  /** Controlled use: the selected tab id and its setter. */
  selectedId?: string;
  onSelect?: (id: string) => void;
  className?: string;
}

export function Tabs({ tabs, label, defaultTabId, selectedId, onSelect, className }: TabsProps) {
  const baseId = useId();
  const [ownSelected, setOwnSelected] = useState(defaultTabId ?? tabs[0]?.id ?? '');
  const selected = selectedId ?? ownSelected;
  const refs = useRef(new Map<string, HTMLButtonElement>());

  const select = (id: string) => {
    setOwnSelected(id);
    onSelect?.(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
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

  return (
    <div className={['tabs', className].filter(Boolean).join(' ')}>
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((tab, index) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) refs.current.set(tab.id, el);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              className="tab"
              data-tab-id={tab.id}
              onClick={() => select(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
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
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
