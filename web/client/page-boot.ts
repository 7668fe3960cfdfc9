/**
 * The only script a page runs before the visitor interacts with it, inlined in the document head.
 *
 * Pages arrive as complete server-rendered HTML, so reading them needs no JavaScript. The React app
 * (about 150 KB gzipped of framework and route code) is loaded when the visitor first means to use the
 * page (a completed tap or click, a key, focus, typing), not on a scroll and not before: the server
 * turns React Router's module script and its modulepreload links into an inert script
 * (`DEFERRED_SCRIPT_TYPE`, see web/client/defer-hydration.ts), and this script starts it, running the
 * modules one per task so the main thread is never held long while the visitor may tap. Until the app
 * has hydrated, everything a visitor taps works as plain HTML, at once: a box or an option is ticked, a
 * question opens, a link is followed, a form is sent to the server (decision 0020). What would load the
 * page again, a tab (the FAQ categories, the guide's contents views, the case selector) or a comparison
 * table's row (links to the page in that state), is switched here instead: the tablist and panels, or
 * the rows and explanations, and the address. Nothing is kept to be replayed: when React hydrates,
 * Tabs.tsx and DisclosureTable.tsx take over the state the page shows, and form fields, which React
 * leaves uncontrolled or reads on mount, keep what was typed. Until then it also keeps taps and keys
 * from reaching React (which, while hydrating, would finish hydrating the whole page at once, with
 * the tap waiting for it).
 *
 * It also keeps the header's scrolled state (`data-scrolled` on <html>), which CSS styles, so the bar
 * turns white the moment the page scrolls, with or without React.
 *
 * This module is the script itself: the build bundles it into one minified inline script
 * (`import ... from './client/page-boot?inline-script'` in root.tsx, see scripts/vite-inline-script.ts),
 * so it may import what it needs (the shared names are in boot-contract.ts) and runs once, on load.
 */
import { PAGE_BOOT_OPTIONS, type PageBootOptions } from './boot-contract';

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
  // scroll ends in pointercancel, never in a click), a key, focus, typing. A scroll alone starts nothing:
  // the page reads and answers taps without the app, and loading it would only compete with the next tap.
  // Not the tap's pointerup: on a phone it comes a few frames before the tap's click, in a task of its
  // own, and the app's first tasks would then run before the click, which waited for them (decision
  // 0039). The focus a tap gives comes in the click's own task.
  const triggers = ['click', 'keydown', 'focusin', 'input'];
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
  // Runs `work` once the frame that shows what the tap did has been painted: the tap comes first.
  const afterPaint = (work: () => void): void => {
    requestAnimationFrame(() => window.setTimeout(work, 0));
  };
  const loadAfterPaint = (): void => afterPaint(() => void load());
  const start = (): void => {
    if (started) return;
    started = true;
    for (const type of triggers) window.removeEventListener(type, start, true);
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', loadAfterPaint, { once: true });
    else loadAfterPaint();
  };
  for (const type of triggers) window.addEventListener(type, start, { capture: true, passive: true });

  // Writes the choice a tab link or a comparison row stands for in the address, as the components do
  // once the app runs (web/components/ui/address.ts): its query value, or none when the row closes, and
  // its anchor; the history entry is replaced and its state kept for the router. Written once the
  // frame showing the choice has been painted (decision 0039): `history.replaceState` costs a phone
  // several milliseconds, which the tap would otherwise wait for; the visitor sees no address bar
  // change before then anyway. Choices made before it is written add up in `address`, and it is left
  // to the app when it has hydrated meanwhile (the components put their state in the address then).
  let address: URL | null = null;
  const remember = (link: Element, chosen: boolean): void => {
    const name = link.getAttribute(options.choiceQueryAttribute);
    if (!name || !(link instanceof HTMLAnchorElement)) return;
    const pending = address !== null;
    const url = address ?? new URL(location.href);
    if (chosen) url.searchParams.set(name, link.getAttribute(options.choiceValueAttribute) ?? '');
    else url.searchParams.delete(name);
    url.hash = new URL(link.href).hash;
    address = url;
    if (pending) return;
    afterPaint(() => {
      const written = address;
      address = null;
      if (written && root.dataset.hydrated !== 'true') history.replaceState(history.state, '', written);
    });
  };
  // Shows `tab` as the chosen one of its tablist, as Tabs.tsx renders it.
  const showTab = (tab: Element): void => {
    for (const other of Array.from(tab.closest('[role="tablist"]')?.querySelectorAll('[role="tab"]') ?? [])) {
      const chosen = other === tab;
      other.setAttribute('aria-selected', String(chosen));
      other.setAttribute('tabindex', chosen ? '0' : '-1');
      const panel = doc.getElementById(other.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !chosen;
    }
    remember(tab, true);
  };
  // Shows a comparison row's explanation as DisclosureTable.tsx renders it: that row chosen, or none
  // when it was the chosen one.
  const toggleRow = (toggle: Element): void => {
    const opening = toggle.getAttribute('aria-expanded') !== 'true';
    for (const other of Array.from(toggle.closest('table')?.querySelectorAll(`[${options.rowToggleAttribute}]`) ?? [])) {
      const chosen = opening && other === toggle;
      other.setAttribute('aria-expanded', String(chosen));
      other.closest('tr')?.setAttribute('data-selected', String(chosen));
      const explanation = doc.getElementById(other.getAttribute(options.rowToggleAttribute) ?? '');
      if (explanation) explanation.hidden = !chosen;
    }
    const hint = doc.getElementById(toggle.getAttribute('aria-controls') ?? '')?.querySelector<HTMLElement>('.row-explanation-hint');
    if (hint) hint.hidden = opening;
    remember(toggle, opening);
  };
  // A tab or a comparison row is a link to the page in that state: followed now, it would load the
  // page again. It is switched here instead, at once; the component takes the state over from the
  // page when the app has hydrated (nothing is replayed). Every other click is the browser's: a box
  // is ticked, a question opens, a link is followed, a form is sent, as without script.
  const onClick = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target : null;
    const tab = target?.closest('[role="tab"]');
    const switched = tab ?? target?.closest(`[${options.rowToggleAttribute}]`);
    const opener = switched ? null : target?.closest(`a[${options.opensInPlaceAttribute}]`);
    const chosen = switched ?? opener;
    // A link opened elsewhere (new tab or window) is the browser's.
    if (!chosen || (chosen instanceof HTMLAnchorElement && (event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey))) return;
    event.preventDefault();
    // An opener (the video, the booking form) shows at once that it is opening; the component opens it
    // when the app takes over (plain-click.ts). Marked once: a second tap changes nothing.
    if (opener) opener.setAttribute(options.openingAttribute, 'true');
    else if (tab) showTab(tab);
    else if (switched) toggleRow(switched);
  };
  // Left, Right, Home and End on a tab move to a tab and show it, as Tabs.tsx does.
  const onKeyDown = (event: KeyboardEvent): void => {
    const tab = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('[role="tab"]') : null;
    const tabs = Array.from(tab?.closest('[role="tablist"]')?.querySelectorAll<HTMLElement>('[role="tab"]') ?? []);
    const index = tab ? tabs.indexOf(tab) : -1;
    const last = tabs.length - 1;
    const moves: Record<string, number> = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last };
    const next = tabs[moves[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    showTab(next);
    next.focus();
  };

  // React hydrates the whole document at once: a tap (or key) that reaches it while it is hydrating
  // makes it finish all of that work at once, and the tap waits for it. Until the page has hydrated,
  // these events stop at the window, after this script has handled them. Stopping an event does not
  // cancel it: its default action (a box ticked, a question opened, a link followed, a form sent to
  // the server) happens at once, as without script.
  const handlers: Record<string, (event: never) => void> = { click: onClick, keydown: onKeyDown };
  const heldFromReact = [
    ...Object.keys(handlers),
    ...'input change submit mousedown mouseup touchstart touchend touchcancel pointerdown pointerup pointercancel auxclick dblclick contextmenu keypress keyup'.split(' '),
  ];
  const screen = (event: Event): void => {
    handlers[event.type]?.(event as never);
    event.stopPropagation();
  };
  for (const type of heldFromReact) window.addEventListener(type, screen, { capture: true, passive: !(type in handlers) });
  doc.addEventListener(
    options.hydratedEvent,
    () => {
      for (const type of heldFromReact) window.removeEventListener(type, screen, true);
    },
    { once: true },
  );
}

pageBoot(PAGE_BOOT_OPTIONS);
