/**
 * The only script a page runs before the visitor interacts with it, inlined in the document head.
 *
 * Pages arrive as complete server-rendered HTML, so reading them needs no JavaScript. The React app
 * (about 150 KB gzipped of framework and route code) is loaded when the visitor first means to use the
 * page (a completed tap or click, a key, focus, typing), not on a scroll and not before: the server
 * turns React Router's module script and its modulepreload links into an inert script
 * (`DEFERRED_SCRIPT_TYPE`, see web/client/defer-hydration.ts), and this script starts it, running the
 * modules one per task so the main thread is never held long while the visitor may tap. Until the app
 * has hydrated, it keeps what the visitor does so nothing is lost: clicks on buttons, tabs, checkboxes
 * and radios, form submissions, arrow keys on tabs, and values typed into fields are replayed once
 * React is in charge; and it keeps taps and keys from reaching React while React is hydrating (which
 * would make React finish hydrating the whole page at once, with the tap waiting for it).
 * A tab (the FAQ categories, the guide's contents views, the case selector) and a comparison table's
 * row are also shown at once: the tablist and panels, or the rows and explanations, are switched here
 * (and a tab link's address updated), so nothing a visitor taps waits for the app; the replayed click
 * then brings React's state to what is shown.
 *
 * It also keeps the header's scrolled state (`data-scrolled` on <html>), which CSS styles, so the bar
 * turns white the moment the page scrolls, with or without React.
 *
 * This module is the script itself: the build bundles it into one minified inline script
 * (`import ... from './client/page-boot?inline-script'` in root.tsx, see scripts/vite-inline-script.ts),
 * so it may import what it needs (the shared names are in boot-contract.ts) and runs once, on load.
 */
import { OPENS_IN_PLACE_ATTRIBUTE, PAGE_BOOT_OPTIONS, type PageBootOptions } from './boot-contract';

function pageBoot(options: PageBootOptions): void {
  const doc = document;
  const root = doc.documentElement;

  const markScrolled = (): void => {
    root.dataset.scrolled = window.scrollY > options.scrollThresholdPx ? 'true' : 'false';
  };
  markScrolled();
  window.addEventListener('scroll', markScrolled, { passive: true });

  // Opened at an anchor: the long pages lay their sections out only as they near the screen (app.css),
  // each standing in at a guessed height until then. Marked before the first paint, every section is
  // laid out from the start, so the browser scrolls to where the section really is and nothing around
  // it moves when it gets there. (Without JavaScript, CSS does the same from `:target`, which the
  // browser only sets once the page has loaded: too late when a frame was painted before.)
  if (window.location.hash.length > 1) root.dataset.anchored = 'true';

  // What says the visitor means to use the page: a completed tap or click (a touch that turns into a
  // scroll ends in pointercancel, never pointerup), a key, focus, typing. A scroll alone starts nothing:
  // the page reads and answers taps without the app, and loading it would only compete with the next tap.
  const triggers = ['pointerup', 'click', 'keydown', 'focusin', 'input'];
  let started = false;
  const list = (deferred: Element, attribute: string): string[] => {
    const hrefs: unknown = JSON.parse(deferred.getAttribute(attribute) ?? '[]');
    return Array.isArray(hrefs) ? hrefs.map(String) : [];
  };
  // A macrotask boundary: the browser handles a waiting tap and paints before the work goes on.
  const yieldToBrowser = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));
  // Runs `each` over `items` in tasks of about 10 ms (starting a module's download is costly enough
  // on a slow phone that thirty at once hold the main thread for a tenth of a second or more).
  const inSlices = async <T>(items: readonly T[], each: (item: T) => void): Promise<void> => {
    let sliceStart = performance.now();
    for (const item of items) {
      if (performance.now() - sliceStart > 10) {
        await yieldToBrowser();
        sliceStart = performance.now();
      }
      each(item);
    }
  };
  const preload = (href: string): void => {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    doc.head.appendChild(link);
  };
  // The modules run one per task (all of them at once is a main-thread task of several hundred
  // milliseconds on a phone), then React Router's script, which starts the app. A module that fails
  // to load is left to that script, which fails as it would have.
  const load = async (): Promise<void> => {
    for (const deferred of Array.from(doc.querySelectorAll<HTMLScriptElement>(`script[type="${options.deferredType}"]`))) {
      await inSlices(list(deferred, options.preloadsAttribute), preload);
      for (const href of list(deferred, options.evaluateAttribute)) {
        await import(/* @vite-ignore */ href).then(yieldToBrowser, () => undefined);
      }
      const script = doc.createElement('script');
      script.type = 'module';
      script.textContent = deferred.textContent;
      doc.head.appendChild(script);
    }
  };
  // Once the frame that shows what the tap did has been painted: the tap comes first.
  const loadAfterPaint = (): void => {
    requestAnimationFrame(() => window.setTimeout(() => void load(), 0));
  };
  const start = (): void => {
    if (started) return;
    started = true;
    for (const type of triggers) window.removeEventListener(type, start, true);
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', loadAfterPaint, { once: true });
    else loadAfterPaint();
  };
  for (const type of triggers) window.addEventListener(type, start, { capture: true, passive: true });

  // Until React is in charge: keep what the visitor does, replay it after hydration.
  const replays: Array<() => void> = [];
  const edited = new Set<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
  const hold = (event: Event, replay: () => void): void => {
    event.preventDefault();
    event.stopImmediatePropagation();
    replays.push(replay);
    start();
  };
  // Shows `tab` as the chosen one of its tablist, as Tabs.tsx renders it, and writes a tab link's
  // query and anchor in the address (history state kept for the router).
  const showTab = (tab: Element): void => {
    for (const other of Array.from(tab.closest('[role="tablist"]')?.querySelectorAll('[role="tab"]') ?? [])) {
      const chosen = other === tab;
      other.setAttribute('aria-selected', String(chosen));
      other.setAttribute('tabindex', chosen ? '0' : '-1');
      const panel = doc.getElementById(other.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !chosen;
    }
    if (tab instanceof HTMLAnchorElement) {
      const url = new URL(location.href);
      const link = new URL(tab.href);
      link.searchParams.forEach((value, name) => url.searchParams.set(name, value));
      url.hash = link.hash;
      history.replaceState(history.state, '', url);
    }
  };
  // Shows a comparison row's explanation as DisclosureTable.tsx renders it: that row chosen, or none
  // when it was the chosen one.
  const toggleRow = (toggle: Element): void => {
    const opening = toggle.getAttribute('aria-expanded') !== 'true';
    for (const other of Array.from(toggle.closest('table')?.querySelectorAll('[data-row-explains]') ?? [])) {
      const chosen = opening && other === toggle;
      other.setAttribute('aria-expanded', String(chosen));
      other.closest('tr')?.setAttribute('data-selected', String(chosen));
      const explanation = doc.getElementById(other.getAttribute('data-row-explains') ?? '');
      if (explanation) explanation.hidden = !chosen;
    }
    const hint = doc.getElementById(toggle.getAttribute('aria-controls') ?? '')?.querySelector<HTMLElement>('.row-explanation-hint');
    if (hint) hint.hidden = opening;
  };
  const onClick = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target : null;
    const tab = target?.closest('[role="tab"]');
    const row = target?.closest('[data-row-explains]');
    const opener = target?.closest(`a[${OPENS_IN_PLACE_ATTRIBUTE}]`);
    // A tab, row or opener link opened elsewhere (new tab or window) is the browser's.
    if ((tab instanceof HTMLAnchorElement || row || opener) && (event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)) return;
    if (tab) showTab(tab);
    if (row) toggleRow(row);
    const label = target?.closest('label');
    const control = label ? label.control : null;
    const clickable =
      control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')
        ? label
        : target?.closest<HTMLElement>(`button, [role="button"], [role="tab"], input[type="checkbox"], input[type="radio"], a[${OPENS_IN_PLACE_ATTRIBUTE}]`);
    if (!clickable) return;
    hold(event, () => {
      // React may have rendered the element anew (a page it could not hydrate as it was): find it by id.
      const now = clickable.isConnected ? clickable : clickable.id ? doc.getElementById(clickable.id) : null;
      now?.click();
    });
  };
  // A form submitted without a click (Enter in a form that has no submit button).
  const onSubmit = (event: SubmitEvent): void => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form) return;
    const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
    hold(event, () => {
      if (form.isConnected) form.requestSubmit(submitter && submitter.isConnected ? submitter : undefined);
    });
  };
  const tabKeys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
  const onKeyDown = (event: KeyboardEvent): void => {
    const tab = event.target instanceof Element ? event.target.closest('[role="tab"]') : null;
    if (!tab || !tabKeys.includes(event.key)) return;
    const { key, code, shiftKey, altKey, ctrlKey, metaKey } = event;
    // Left, Right, Home and End move to a tab and show it, as Tabs.tsx does (Up and Down only wait).
    const tabs = Array.from(tab.closest('[role="tablist"]')?.querySelectorAll<HTMLElement>('[role="tab"]') ?? []);
    const index = tabs.indexOf(tab as HTMLElement);
    const last = tabs.length - 1;
    const next = tabs[key === 'ArrowRight' ? (index === last ? 0 : index + 1) : key === 'ArrowLeft' ? (index === 0 ? last : index - 1) : key === 'Home' ? 0 : key === 'End' ? last : -1];
    if (next) {
      showTab(next);
      next.focus();
    }
    hold(event, () => {
      if (tab.isConnected) tab.dispatchEvent(new KeyboardEvent('keydown', { key, code, shiftKey, altKey, ctrlKey, metaKey, bubbles: true, cancelable: true }));
    });
  };
  const onEdit = (event: Event): void => {
    const field = event.target;
    if (field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement) edited.add(field);
    else if (field instanceof HTMLInputElement && field.type !== 'checkbox' && field.type !== 'radio') edited.add(field);
  };
  // React keeps the value it last saw on each field and ignores an `input` event that does not change
  // it: set the field back through React's tracker, put the typed value in natively, then notify.
  const replayEdit = (field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): void => {
    if (!field.isConnected) return;
    if (field instanceof HTMLSelectElement) {
      field.dispatchEvent(new Event('change', { bubbles: true }));
      return;
    }
    const typed = field.value;
    const native = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;
    field.value = typed === field.defaultValue ? `${typed} ` : field.defaultValue;
    if (native) native.call(field, typed);
    else field.value = typed;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };

  // React hydrates the whole document at once: a tap (or key) that reaches it while it is hydrating
  // makes it finish all of that work at once, and the tap waits for it. Until the page has hydrated,
  // these events stop at the window, after this script has handled them: their default actions (a
  // question opening, a link followed, a box ticked) happen as usual, and what is kept is replayed.
  const handlers: Record<string, (event: never) => void> = { click: onClick, keydown: onKeyDown, input: onEdit, change: onEdit };
  const heldFromReact = [
    ...Object.keys(handlers),
    ...'mousedown mouseup touchstart touchend touchcancel pointerdown pointerup pointercancel auxclick dblclick contextmenu keypress keyup'.split(' '),
  ];
  const screen = (event: Event): void => {
    handlers[event.type]?.(event as never);
    event.stopPropagation();
  };
  for (const type of heldFromReact) window.addEventListener(type, screen, { capture: true, passive: !(type in handlers) });
  doc.addEventListener('submit', onSubmit, true);
  doc.addEventListener(
    options.hydratedEvent,
    () => {
      for (const type of heldFromReact) window.removeEventListener(type, screen, true);
      doc.removeEventListener('submit', onSubmit, true);
      // After the effect that announced hydration has returned, so React handles these as usual.
      window.setTimeout(() => {
        for (const field of edited) replayEdit(field);
        for (const replay of replays) replay();
      }, 0);
    },
    { once: true },
  );
}

pageBoot(PAGE_BOOT_OPTIONS);
