/**
 * Links that open what they name in place (the video player, the booking form): a plain click, once
 * the app runs, opens it on the page; without JavaScript, or with Ctrl, Cmd, Shift, Alt or another
 * button, the browser follows the link as it would any other. A plain click made before the app has
 * loaded is shown by the page boot script as opening (boot-contract.ts `OPENING_ATTRIBUTE`), and the
 * component opens it when it hydrates: it takes over what the visitor saw, nothing is replayed.
 */
import { type MouseEvent, useLayoutEffect, useRef } from 'react';
import { OPENING_ATTRIBUTE, OPENS_IN_PLACE_ATTRIBUTE } from '../../client/boot-contract';

/** Whether a click on a link is a plain one: the primary button with no modifier key. */
export function isPlainClick(event: MouseEvent<HTMLElement>): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}

/**
 * The props of such a link: the mark the page boot looks for, a click handler that opens in place on
 * a plain click, and a ref through which the component opens it at hydration when the link was
 * tapped before (it shows as opening).
 */
export function useOpensInPlace(open: () => void) {
  const ref = useRef<HTMLAnchorElement>(null);
  useLayoutEffect(() => {
    if (ref.current?.getAttribute(OPENING_ATTRIBUTE) === 'true') open();
    // Once, when the component takes the page over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return {
    ref,
    [OPENS_IN_PLACE_ATTRIBUTE]: '',
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      open();
    },
  };
}
