/** Short notifications in a polite live region; each disappears after a few seconds. */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ToastMessage {
  id: number;
  tone: 'success' | 'error';
  text: string;
}

export function useToasts(timeoutMs = 6000) {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  const next = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  const show = useCallback(
    (tone: ToastMessage['tone'], text: string) => {
      const id = next.current++;
      setToasts((list) => [...list, { id, tone, text }]);
      const timer = setTimeout(() => {
        setToasts((list) => list.filter((t) => t.id !== id));
        timers.current.delete(timer);
      }, timeoutMs);
      timers.current.add(timer);
    },
    [timeoutMs],
  );
  return { toasts, show };
}

export function ToastRegion({ toasts }: { toasts: readonly ToastMessage[] }) {
  return (
    <div className="toast-region" aria-live="polite" role="status" data-testid="toasts">
      {toasts.map((toast) => (
        <p key={toast.id} className={`toast toast-${toast.tone}`}>
          {toast.text}
        </p>
      ))}
    </div>
  );
}
