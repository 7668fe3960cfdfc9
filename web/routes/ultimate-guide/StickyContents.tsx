/**
 * The guide's contents beside the text on wide screens (guide.css shows it from 1200 px and keeps it in
 * view while the page scrolls; narrower screens have only the contents section at the top). Its entries
 * are the same as that section's, as plain anchor links, so it works before and without JavaScript.
 *
 * Once the app runs, it marks the section being read (aria-current="location") and shows how far
 * through the guide the reader is. An IntersectionObserver says when a section crosses the reading
 * line (30% down the viewport); the progress follows one passive scroll listener, at most once a frame.
 * Both only run while the list is shown (a wide screen).
 */
import { useEffect, useState } from 'react';
import type { ContentsEntry } from '../../content/guide/overview';

/** Where the reader's eye is taken to be: this far down the viewport. */
const READING_LINE = 0.3;

/** The width from which the list is shown: the same as guide.css. */
const WIDE_SCREEN = '(min-width: 1200px)';

const LABELS = {
  nav: 'Guide sections',
  heading: 'On this page',
  progress: 'Read so far',
} as const;

interface ReadingState {
  current: string | null;
  /** Whole percent of the guide's sections above the reading line, or null before the script runs. */
  percent: number | null;
}

/** Which section is at the reading line, and how much of the sections lies above it. */
function readingState(sections: readonly HTMLElement[]): ReadingState {
  const line = window.innerHeight * READING_LINE;
  let current: string | null = null;
  for (const section of sections) if (section.getBoundingClientRect().top <= line) current = section.id;
  const first = sections[0]?.getBoundingClientRect();
  const last = sections.at(-1)?.getBoundingClientRect();
  if (!first || !last || last.bottom <= first.top) return { current, percent: 0 };
  const fraction = (line - first.top) / (last.bottom - first.top);
  return { current, percent: Math.round(Math.min(1, Math.max(0, fraction)) * 100) };
}

/** Follows the reading position while `sections` are shown on a wide screen; returns the stop function. */
function followReading(sections: readonly HTMLElement[], update: (state: ReadingState) => void): () => void {
  let frame = 0;
  const measure = () => {
    frame = 0;
    update(readingState(sections));
  };
  const schedule = () => {
    if (frame === 0) frame = requestAnimationFrame(measure);
  };
  const observer = new IntersectionObserver(schedule, { rootMargin: `0px 0px -${(1 - READING_LINE) * 100}% 0px` });
  for (const section of sections) observer.observe(section);
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  schedule();
  return () => {
    observer.disconnect();
    window.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    if (frame !== 0) cancelAnimationFrame(frame);
  };
}

export function StickyContents({ entries }: { entries: readonly ContentsEntry[] }) {
  const [reading, setReading] = useState<ReadingState>({ current: null, percent: null });

  useEffect(() => {
    const sections = entries.map((entry) => document.getElementById(entry.id)).filter((section): section is HTMLElement => section !== null);
    const wide = window.matchMedia(WIDE_SCREEN);
    let stop: (() => void) | null = null;
    const apply = () => {
      stop?.();
      stop = wide.matches ? followReading(sections, (next) => setReading((prev) => (prev.current === next.current && prev.percent === next.percent ? prev : next))) : null;
    };
    apply();
    wide.addEventListener('change', apply);
    return () => {
      wide.removeEventListener('change', apply);
      stop?.();
    };
  }, [entries]);

  const percent = reading.percent ?? 0;
  return (
    <aside className="sticky-contents" data-testid="sticky-contents">
      <nav aria-label={LABELS.nav}>
        <p className="sticky-contents-heading">{LABELS.heading}</p>
        {/* Space kept from the start and shown once there is a figure, so nothing moves when it appears. */}
        <div className="sticky-contents-progress" data-ready={reading.percent === null ? 'false' : 'true'}>
          <div
            className="sticky-contents-track"
            role="progressbar"
            aria-label={LABELS.progress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            data-testid="sticky-contents-progress"
          >
            <span style={{ transform: `scaleX(${percent / 100})` }} />
          </div>
          <span className="sticky-contents-percent" aria-hidden="true">
            {percent}%
          </span>
        </div>
        <ol>
          {entries.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`} aria-current={reading.current === entry.id ? 'location' : undefined}>
                {entry.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
    </aside>
  );
}
