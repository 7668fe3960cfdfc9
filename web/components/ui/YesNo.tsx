/**
 * A yes/no mark in a comparison table, readable by screen readers. The tick and the cross are drawn by
 * the stylesheet (`.mark::before` in app.css, lucide's Check and X as masks), not as inline SVG: the
 * home page's comparison holds 84 of them, which as SVG were 28 KB of its HTML and 250 elements to
 * parse and lay out before the page answers a tap (docs/decisions/0012-lighthouse-on-a-shared-machine.md).
 */
export function YesNo({ value }: { value: boolean }) {
  return (
    <span className={value ? 'mark mark-yes' : 'mark mark-no'} data-value={value ? 'yes' : 'no'}>
      <span className="visually-hidden">{value ? 'Yes' : 'No'}</span>
    </span>
  );
}
