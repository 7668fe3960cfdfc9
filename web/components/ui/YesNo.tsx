import { Check, X } from 'lucide-react';

/** A yes/no mark in a comparison table, readable by screen readers. */
export function YesNo({ value }: { value: boolean }) {
  return (
    <span className={value ? 'mark mark-yes' : 'mark mark-no'} data-value={value ? 'yes' : 'no'}>
      {value ? <Check aria-hidden="true" size={20} /> : <X aria-hidden="true" size={20} />}
      <span className="visually-hidden">{value ? 'Yes' : 'No'}</span>
    </span>
  );
}
