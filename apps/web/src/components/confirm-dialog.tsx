import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
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

/** One answer of a question with several (useChoose). */
export interface Choice<T extends string> {
  value: T;
  label: string;
  variant?: 'default' | 'outline' | 'destructive';
  'data-testid'?: string;
}

/**
 * A question with more than two answers, e.g. what to do with a plan that changed since it was opened.
 * `dismissValue` is what Escape answers and where the focus starts: the answer that changes nothing.
 */
export interface ChoiceRequest<T extends string> {
  title: string;
  /** A sentence under the title that says what each answer does. */
  description?: string;
  choices: readonly Choice<T>[];
  dismissValue: T;
  'data-testid'?: string;
}

export type Choose = <T extends string>(request: ChoiceRequest<T>) => Promise<T>;

interface Contexts {
  confirm: Confirm;
  choose: Choose;
}

const ConfirmContext = createContext<Contexts | null>(null);

function useContexts(hook: string): Contexts {
  const value = useContext(ConfirmContext);
  if (!value) throw new Error(`${hook} needs a <ConfirmProvider> above it (see app/providers.tsx)`);
  return value;
}

export function useConfirm(): Confirm {
  return useContexts('useConfirm()').confirm;
}

/** Asks a question with several answers in the in-app dialog; resolves to the answer chosen. */
export function useChoose(): Choose {
  return useContexts('useChoose()').choose;
}

interface Pending {
  title: string;
  description?: string | undefined;
  choices: readonly Choice<string>[];
  dismissValue: string;
  testId: string;
  /** The question of useConfirm, which keeps its own test ids. */
  confirm: boolean;
  resolve: (answer: string) => void;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const dismissRef = useRef<HTMLButtonElement>(null);
  /** Where the focus was when the question was asked: it goes back there once it is answered. */
  const returnFocusRef = useRef<HTMLElement | null>(null);

  const settle = useCallback((answer: string | null) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(answer ?? current.dismissValue);
  }, []);

  const ask = useCallback((request: Omit<Pending, 'resolve'>) => {
    return new Promise<string>((resolve) => {
      // One question at a time: a newer one answers the older with its dismissing answer.
      const older = pendingRef.current;
      older?.resolve(older.dismissValue);
      if (!older && document.activeElement instanceof HTMLElement)
        returnFocusRef.current = document.activeElement;
      const next = { ...request, resolve };
      pendingRef.current = next;
      setPending(next);
    });
  }, []);

  const contexts = useMemo<Contexts>(
    () => ({
      confirm: async (request) =>
        (await ask({
          title: request.message,
          choices: [
            {
              value: 'cancel',
              label: t('confirm.cancel'),
              variant: 'outline',
              'data-testid': 'confirm-cancel',
            },
            {
              value: 'accept',
              label: request.confirmLabel,
              variant: request.destructive ? 'destructive' : 'default',
              'data-testid': 'confirm-accept',
            },
          ],
          dismissValue: 'cancel',
          testId: 'confirm-dialog',
          confirm: true,
        })) === 'accept',
      choose: <T extends string>(request: ChoiceRequest<T>) =>
        ask({
          title: request.title,
          description: request.description,
          choices: request.choices,
          dismissValue: request.dismissValue,
          testId: request['data-testid'] ?? 'choice-dialog',
          confirm: false,
        }) as Promise<T>,
    }),
    [ask, t],
  );

  return (
    <ConfirmContext.Provider value={contexts}>
      {children}
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) settle(null);
        }}
      >
        {pending && (
          <DialogContent
            role="alertdialog"
            aria-modal="true"
            // Radix links a DialogDescription by itself; without one, no description is announced.
            {...(pending.description ? {} : { 'aria-describedby': undefined })}
            className="max-w-md"
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              dismissRef.current?.focus();
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              const target = returnFocusRef.current;
              returnFocusRef.current = null;
              if (target?.isConnected) target.focus();
            }}
            onPointerDownOutside={(event) => event.preventDefault()}
            onInteractOutside={(event) => event.preventDefault()}
            data-testid={pending.testId}
          >
            <DialogHeader className="pr-0">
              <DialogTitle
                className="text-base font-medium leading-6"
                data-testid={pending.confirm ? 'confirm-message' : `${pending.testId}-title`}
              >
                {pending.title}
              </DialogTitle>
              {pending.description && <DialogDescription>{pending.description}</DialogDescription>}
            </DialogHeader>
            <DialogFooter>
              {pending.choices.map((choice) => (
                <Button
                  key={choice.value}
                  ref={choice.value === pending.dismissValue ? dismissRef : undefined}
                  variant={choice.variant ?? 'default'}
                  onClick={() => settle(choice.value)}
                  data-testid={choice['data-testid']}
                >
                  {choice.label}
                </Button>
              ))}
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

/**
 * Asks before Stop Test ends a run (docs/reference/02-running.md §4): what was measured so far is kept,
 * but the run cannot go on. Resolves to true when the user chose to stop.
 */
export function useConfirmStop(): () => Promise<boolean> {
  const t = useT();
  const confirm = useConfirm();
  return useCallback(
    () => confirm({ message: t('stop.question'), confirmLabel: t('results.stopTest'), destructive: true }),
    [confirm, t],
  );
}
