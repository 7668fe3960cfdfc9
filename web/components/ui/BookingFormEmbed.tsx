/**
 * A third-party booking form that costs nothing until asked for: a panel describing the form with a
 * link to the form's own page on the provider's site, which works without JavaScript (and opens in a
 * new tab on Ctrl/Cmd or a middle click); once the app runs, a plain click inserts the provider's
 * iframe and then its embed script (async, placed after the iframe). If the script fails, or the
 * iframe fires no load event within the timeout, a fallback with the visitor's other ways to reach us
 * is shown (the iframe stays, in case it arrives late).
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useOpensInPlace } from './plain-click';

export interface BookingFormEmbedProps {
  /** The form's own page: the iframe's address, and where the opener link leads without JavaScript. */
  formUrl: string;
  scriptUrl: string;
  frameTitle: string;
  frameSize: { height: string; minHeight: string };
  openLabel: string;
  /** Shown under the link: what opening the form loads. */
  openNote?: string;
  loadingMessage: string;
  fallbackHeading: string;
  /** The other ways to reach the agency (phone and e-mail links). */
  fallback: ReactNode;
  /** Milliseconds the iframe may take to fire its load event. */
  loadTimeoutMs: number;
  /** The panel that describes the form before it is opened. */
  children: ReactNode;
}

type EmbedState = 'closed' | 'loading' | 'ready' | 'failed';

export function BookingFormEmbed({
  formUrl,
  scriptUrl,
  frameTitle,
  frameSize,
  openLabel,
  openNote,
  loadingMessage,
  fallbackHeading,
  fallback,
  loadTimeoutMs,
  children,
}: BookingFormEmbedProps) {
  const [opened, setOpened] = useState(false);
  const opener = useOpensInPlace(() => setOpened(true));
  const [frameLoaded, setFrameLoaded] = useState(false);
  const [scriptFailed, setScriptFailed] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const scriptSlot = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLParagraphElement>(null);

  // The script goes in only once the iframe is in the document, right after it, as the provider's
  // snippet expects; the load timer starts with it.
  useEffect(() => {
    if (!opened) return;
    const slot = scriptSlot.current;
    if (!slot) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onerror = () => setScriptFailed(true);
    slot.appendChild(script);
    const timer = window.setTimeout(() => setTimedOut(true), loadTimeoutMs);
    status.current?.focus();
    return () => {
      window.clearTimeout(timer);
      script.onerror = null;
      script.remove();
    };
  }, [opened, scriptUrl, loadTimeoutMs]);

  const state: EmbedState = !opened
    ? 'closed'
    : scriptFailed || (timedOut && !frameLoaded)
      ? 'failed'
      : frameLoaded
        ? 'ready'
        : 'loading';

  return (
    <div className="booking-embed" data-testid="booking-embed" data-state={state}>
      {opened ? (
        <>
          <p ref={status} tabIndex={-1} role="status" className="booking-status">
            {state === 'loading' ? loadingMessage : ''}
          </p>
          {state === 'failed' ? (
            <div role="alert" className="booking-fallback" data-testid="booking-fallback">
              <h3>{fallbackHeading}</h3>
              {fallback}
            </div>
          ) : null}
          <iframe
            src={formUrl}
            title={frameTitle}
            loading="lazy"
            className="booking-frame"
            style={{ height: frameSize.height, minHeight: frameSize.minHeight }}
            onLoad={() => setFrameLoaded(true)}
            data-testid="booking-frame"
          />
          <div ref={scriptSlot} className="booking-script-slot" data-testid="booking-script-slot" />
        </>
      ) : (
        <div className="booking-facade" data-testid="booking-facade">
          {children}
          {/* Same tab: the form is this page's next step, and Back returns here. A new tab would leave a
              visitor on a phone (most of them) unsure where this page went; Ctrl/Cmd-click still opens one. */}
          <a href={formUrl} className="button button-primary booking-open" {...opener}>
            {openLabel}
          </a>
          {openNote ? <p className="booking-note">{openNote}</p> : null}
        </div>
      )}
    </div>
  );
}
