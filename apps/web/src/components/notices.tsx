import { CircleCheck, CircleX, X } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

/**
 * In-app notices in place of the browser's blocking alert(): the messages of
 * docs/reference/01-authoring.md §8 and docs/reference/02-running.md §8, word for word, shown in a corner
 * without stopping the page. A success is announced politely (role="status") and goes after a few
 * seconds; an error is announced at once (role="alert") and stays until it is dismissed, so a message
 * nobody read is never lost. Every notice has a dismiss button, reachable with Tab.
 */

export type NoticeKind = 'success' | 'error';

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
}

export interface NoticeApi {
  success: (text: string) => number;
  /** Answers the notice's id, for the screen that raised it to dismiss it (useScreenNotices). */
  error: (text: string) => number;
  dismiss: (id: number) => void;
}

/** How long a success stays; the timer waits while the pointer or the keyboard focus is on it. */
export const SUCCESS_VISIBLE_MS = 5000;
/** Older notices make room beyond this many, so a burst of messages cannot cover the page. */
const MAX_SHOWN = 4;

const NoticeContext = createContext<NoticeApi | null>(null);

export function useNotice(): NoticeApi {
  const api = useContext(NoticeContext);
  if (!api) throw new Error('useNotice() needs a <NoticeProvider> above it (see app/providers.tsx)');
  return api;
}

/**
 * A screen's notices, with `clearErrors` to take back the errors this screen raised: an editor calls it
 * when the user tries again (save, start), so a problem already put right is not still shown — on this
 * screen or on the result screen it opens. Errors of other screens stay until dismissed.
 */
export function useScreenNotices(): NoticeApi & { clearErrors: () => void } {
  const api = useNotice();
  const raised = useRef(new Set<number>());
  return useMemo(
    () => ({
      ...api,
      error: (text: string) => {
        const id = api.error(text);
        raised.current.add(id);
        return id;
      },
      clearErrors: () => {
        for (const id of raised.current) api.dismiss(id);
        raised.current.clear();
      },
    }),
    [api],
  );
}

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setNotices((current) => current.filter((notice) => notice.id !== id));
  }, []);

  const show = useCallback((kind: NoticeKind, text: string) => {
    const id = nextId.current++;
    setNotices((current) => {
      // The same message again replaces the earlier one (and restarts its timer) instead of stacking.
      const others = current.filter((notice) => !(notice.kind === kind && notice.text === text));
      return [...others, { id, kind, text }].slice(-MAX_SHOWN);
    });
    return id;
  }, []);

  const api = useMemo<NoticeApi>(
    () => ({
      success: (text) => show('success', text),
      error: (text) => show('error', text),
      dismiss,
    }),
    [show, dismiss],
  );

  return (
    <NoticeContext.Provider value={api}>
      {children}
      <NoticeViewport notices={notices} onDismiss={dismiss} />
    </NoticeContext.Provider>
  );
}

function NoticeViewport({ notices, onDismiss }: { notices: Notice[]; onDismiss: (id: number) => void }) {
  const t = useT();
  return (
    <section
      aria-label={t('notice.region')}
      className="pointer-events-none fixed inset-x-4 bottom-24 z-[60] flex flex-col items-center gap-2 sm:inset-x-auto sm:right-6 sm:items-end"
      data-testid="notices"
    >
      {notices.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} onDismiss={onDismiss} />
      ))}
    </section>
  );
}

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: (id: number) => void }) {
  const t = useT();
  const [held, setHeld] = useState({ hover: false, focus: false });
  const paused = held.hover || held.focus;

  useEffect(() => {
    if (notice.kind !== 'success' || paused) return;
    const timer = setTimeout(() => onDismiss(notice.id), SUCCESS_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [notice, paused, onDismiss]);

  const error = notice.kind === 'error';
  const Icon = error ? CircleX : CircleCheck;
  return (
    <div
      role={error ? 'alert' : 'status'}
      aria-live={error ? 'assertive' : 'polite'}
      aria-atomic="true"
      className={cn(
        'pointer-events-auto flex w-full max-w-md items-start gap-2 rounded-lg border bg-popover py-2.5 pl-4 pr-2 text-sm font-medium text-popover-foreground shadow-pop animate-fade-in',
        error ? 'border-destructive/40' : 'border-success/30',
      )}
      onPointerEnter={() => setHeld((h) => ({ ...h, hover: true }))}
      onPointerLeave={() => setHeld((h) => ({ ...h, hover: false }))}
      onFocus={() => setHeld((h) => ({ ...h, focus: true }))}
      onBlur={() => setHeld((h) => ({ ...h, focus: false }))}
      data-testid="notice"
      data-kind={notice.kind}
    >
      <Icon
        aria-hidden
        className={cn('mt-0.5 size-4 shrink-0', error ? 'text-destructive' : 'text-success')}
      />
      <p className="min-w-0 flex-1 whitespace-pre-line break-words leading-5" data-testid="notice-text">
        {notice.text}
      </p>
      <button
        type="button"
        aria-label={t('notice.dismiss')}
        onClick={() => onDismiss(notice.id)}
        className="-my-0.5 shrink-0 rounded-md p-1 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        data-testid="notice-dismiss"
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  );
}
