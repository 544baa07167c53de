import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useT } from '@/i18n';

/**
 * In-app confirmation in place of the browser's blocking confirm(). `useConfirm()` gives a function that
 * opens the dialog and resolves to true when the action is confirmed, false when it is cancelled (Cancel,
 * Escape, or another confirmation taking its place). The dialog is an alertdialog: focus is trapped in it
 * and starts on Cancel, so Enter on an unread question never deletes anything; a click beside it does
 * not answer it; the confirm button names the action ("Remove", "Delete"), not "OK".
 */

export interface ConfirmRequest {
  /** The question, word for word as the product asks it. */
  message: string;
  /** The action, e.g. "Remove": the label of the confirm button. */
  confirmLabel: string;
  /** A destructive action gets the red button. */
  destructive?: boolean;
}

export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm() needs a <ConfirmProvider> above it (see app/providers.tsx)');
  return confirm;
}

interface Pending extends ConfirmRequest {
  resolve: (confirmed: boolean) => void;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  /** Where the focus was when the question was asked: it goes back there once it is answered. */
  const returnFocusRef = useRef<HTMLElement | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(confirmed);
  }, []);

  const confirm = useCallback<Confirm>(
    (request) =>
      new Promise<boolean>((resolve) => {
        // One question at a time: a newer one answers the older with "cancelled".
        pendingRef.current?.resolve(false);
        if (!pendingRef.current && document.activeElement instanceof HTMLElement)
          returnFocusRef.current = document.activeElement;
        const next = { ...request, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) settle(false);
        }}
      >
        {pending && (
          <DialogContent
            role="alertdialog"
            aria-modal="true"
            aria-describedby={undefined}
            className="max-w-md"
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              cancelRef.current?.focus();
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              const target = returnFocusRef.current;
              returnFocusRef.current = null;
              if (target?.isConnected) target.focus();
            }}
            onPointerDownOutside={(event) => event.preventDefault()}
            onInteractOutside={(event) => event.preventDefault()}
            data-testid="confirm-dialog"
          >
            <DialogHeader className="pr-0">
              <DialogTitle className="text-base font-medium leading-6" data-testid="confirm-message">
                {pending.message}
              </DialogTitle>
            </DialogHeader>
            <DialogFooter>
              <Button
                ref={cancelRef}
                variant="outline"
                onClick={() => settle(false)}
                data-testid="confirm-cancel"
              >
                {t('confirm.cancel')}
              </Button>
              <Button
                variant={pending.destructive ? 'destructive' : 'default'}
                onClick={() => settle(true)}
                data-testid="confirm-accept"
              >
                {pending.confirmLabel}
              </Button>
            </DialogFooter>
          </DialogContent>
        )}
      </Dialog>
    </ConfirmContext.Provider>
  );
}

/**
 * The product's delete question ("Are you sure you want to delete?", a red "Delete"), asked before a plan
 * or a run is deleted: the function resolves to true when it is confirmed.
 */
export function useConfirmDelete(): () => Promise<boolean> {
  const confirm = useConfirm();
  const t = useT();
  return useCallback(
    () =>
      confirm({
        message: t('history.confirmDelete'),
        confirmLabel: t('history.confirmDeleteAction'),
        destructive: true,
      }),
    [confirm, t],
  );
}
