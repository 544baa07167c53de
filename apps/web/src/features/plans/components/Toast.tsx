import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect } from 'react';
import { cn } from '@/lib/utils';

export interface ToastMessage {
  /** Changes with every toast, so the same text shown twice restarts the timer. */
  id: number;
  kind: 'success' | 'error';
  text: string;
}

const VISIBLE_MS = 3000;

/** A short confirmation in the corner (above the save bar), announced politely, gone after 3 s. */
export function Toast({ toast, onDone }: { toast: ToastMessage | null; onDone: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(onDone, VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast, onDone]);

  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-4 bottom-24 z-40 flex justify-center sm:inset-x-auto sm:right-6"
    >
      {toast && (
        <div
          key={toast.id}
          role="status"
          className={cn(
            'pointer-events-auto flex items-center gap-2 rounded-lg border bg-popover px-4 py-2.5 text-sm font-medium text-popover-foreground shadow-pop animate-fade-in',
            toast.kind === 'success' ? 'border-success/30' : 'border-destructive/30',
          )}
          data-testid="toast"
        >
          {toast.kind === 'success' ? (
            <CircleCheck aria-hidden className="size-4 text-success" />
          ) : (
            <CircleX aria-hidden className="size-4 text-destructive" />
          )}
          {toast.text}
        </div>
      )}
    </div>
  );
}
