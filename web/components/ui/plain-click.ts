/**
 * Links that open what they name in place (the video player, the booking form): a plain click, once
 * the app runs, opens it on the page; without JavaScript, or with Ctrl, Cmd, Shift, Alt or another
 * button, the browser follows the link as it would any other.
 */
import type { MouseEvent } from 'react';
import { OPENS_IN_PLACE_ATTRIBUTE } from '../../client/boot-contract';

/** Whether a click on a link is a plain one: the primary button with no modifier key. */
export function isPlainClick(event: MouseEvent<HTMLElement>): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}

/**
 * The props of such a link: the mark the page boot looks for (a plain click made before the app has
 * loaded is kept and replayed, not followed), and a click handler that opens in place on a plain click.
 */
export function opensInPlace(open: () => void) {
  return {
    [OPENS_IN_PLACE_ATTRIBUTE]: '',
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      open();
    },
  };
}
