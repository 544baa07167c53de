import { CircleDot } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

/**
 * What every plan editor (performance URL and script screens, the functional URL screen) shows of its
 * plan's state: saved or new in the header, loading and a failed load above the form, and the save bar's
 * "Not saved yet" / "Unsaved changes" / "All changes saved" (docs/reference/01-authoring.md §2). The
 * screens word their labels themselves.
 */

/** "Saved plan" / "New plan" in the page header. */
export function PlanStateBadge({
  saved,
  label,
  className = 'h-7',
  testId = 'plan-state',
}: {
  saved: boolean;
  label: string;
  className?: string;
  testId?: string;
}) {
  return (
    <Badge
      variant={saved ? 'default' : 'secondary'}
      className={cn('px-3 text-[13px]', className)}
      data-testid={testId}
    >
      <CircleDot aria-hidden />
      {label}
    </Badge>
  );
}

/** The saved plan is being read. */
export function PlanLoadingAlert({ label, testId = 'plan-loading' }: { label: string; testId?: string }) {
  return (
    <Alert variant="info" icon={false} data-testid={testId}>
      <span className="flex items-center gap-2">
        <Spinner />
        {label}
      </span>
    </Alert>
  );
}

/** The saved plan could not be read: why, and a link to a new plan on the same screen. */
export function PlanLoadErrorAlert({
  message,
  startNew,
  testId = 'plan-load-error',
  linkTestId = 'plan-start-new',
}: {
  message: ReactNode;
  startNew: { to: string; label: string };
  testId?: string;
  linkTestId?: string;
}) {
  return (
    <Alert variant="destructive" data-testid={testId}>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {message}
        <Link to={startNew.to} className="font-medium underline underline-offset-4" data-testid={linkTestId}>
          {startNew.label}
        </Link>
      </span>
    </Alert>
  );
}

/** "Not saved yet" / "Unsaved changes" / "All changes saved", with a coloured dot. */
export function SaveStatus({
  editor,
  className,
  testId = 'save-status',
}: {
  editor: { savedId: string | null; dirty: boolean };
  className?: string;
  testId?: string;
}) {
  const t = useT();
  const state = !editor.savedId ? 'new' : editor.dirty ? 'dirty' : 'saved';
  return (
    <span
      className={cn(
        'flex items-center gap-1.5 text-[13px] text-muted-foreground',
        state === 'dirty' && 'text-warning-text',
        className,
      )}
      data-testid={testId}
    >
      <span
        aria-hidden
        className={cn(
          'size-1.5 rounded-full',
          state === 'new' ? 'bg-muted-foreground/50' : state === 'dirty' ? 'bg-warning' : 'bg-success',
        )}
      />
      {state === 'new'
        ? t('plans.notSavedYet')
        : state === 'dirty'
          ? t('plans.unsaved')
          : t('plans.allSaved')}
    </span>
  );
}

/** The bar kept at the foot of an editor screen, edge to edge of the page's padding. */
export const STICKY_FOOTER_CLASS =
  'sticky bottom-0 z-20 -mx-4 border-t border-border bg-background/90 px-4 py-3 backdrop-blur supports-[backdrop-filter]:bg-background/75 sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8';
