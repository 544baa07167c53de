import type { UiScreenshotRef } from '@aqa/plan';
import { ImageOff, LoaderCircle } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { useI18n, type Translate } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { cn } from '@/lib/utils';
import { useScreenshot } from '../hooks/useScreenshot';

/** The runner's own labels ("Step", "Failure", "Page") in the user's language; a screenshot action's file name as written. */
function shotLabel(shot: UiScreenshotRef, t: Translate): string {
  if (shot.label === 'Step') return t('functional.uiResult.stepShot');
  if (shot.label === 'Page') return t('functional.uiResult.pageShot');
  if (shot.label === 'Failure') return t('functional.uiResult.failureShot');
  return shot.failure ? `${shot.label} (${t('functional.uiResult.failureShot')})` : shot.label;
}

/**
 * One screenshot of a UI step (docs/design.md §9 "UI tests"): a thumbnail that opens the picture at full
 * size in a dialog (Escape or the close button closes it, and focus returns to the thumbnail). A failure
 * screenshot is marked in words and colour. `label` names it where the runner's label is not enough
 * (one of several pages: "Page 2").
 */
export function ScreenshotThumb({
  testId,
  stepName,
  shot,
  label: named,
  caption = true,
}: {
  testId: string;
  stepName: string;
  shot: UiScreenshotRef;
  label?: string;
  /** False where the label is written beside the thumbnail already. */
  caption?: boolean;
}) {
  const { t } = useI18n();
  const picture = useScreenshot(testId, shot.id);
  const label = named ?? shotLabel(shot, t);
  const alt = t('functional.uiResult.shotAlt', { step: stepName, label });

  return (
    <figure
      className="w-40 shrink-0 space-y-1"
      data-testid="ui-screenshot"
      data-failure={shot.failure ? 'true' : 'false'}
    >
      <Dialog>
        <DialogTrigger
          disabled={picture.state !== 'ready'}
          aria-label={t('functional.uiResult.enlarge', { label })}
          className={cn(
            'flex aspect-video w-full items-center justify-center overflow-hidden rounded-md border bg-muted',
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring enabled:hover:opacity-90',
            shot.failure ? 'border-destructive/60' : 'border-border',
          )}
          data-testid="ui-screenshot-open"
        >
          {picture.state === 'ready' ? (
            <img src={picture.url} alt={alt} className="size-full object-cover object-top" />
          ) : picture.state === 'loading' ? (
            <LoaderCircle
              aria-label={t('functional.uiResult.shotLoading')}
              className="size-4 animate-spin text-muted-foreground"
            />
          ) : (
            <ImageOff aria-hidden className="size-4 text-muted-foreground" />
          )}
        </DialogTrigger>
        {picture.state === 'ready' && (
          <DialogContent
            closeLabel={t('functional.uiResult.close')}
            className="max-w-[min(96vw,1400px)] gap-3 p-4 sm:p-5"
            data-testid="ui-screenshot-dialog"
          >
            <DialogTitle className="pr-8 text-base">
              {t('functional.uiResult.shotDialog', { step: stepName, label })}
            </DialogTitle>
            <DialogDescription className="sr-only">{alt}</DialogDescription>
            <img
              src={picture.url}
              alt={alt}
              className="mx-auto h-auto max-h-[calc(100dvh-8rem)] w-auto max-w-full rounded-md border border-border"
            />
          </DialogContent>
        )}
      </Dialog>
      <figcaption
        hidden={!caption}
        className={cn(
          'truncate text-xs',
          shot.failure ? 'font-medium text-destructive-text' : 'text-muted-foreground',
        )}
        title={label}
      >
        {label}
      </figcaption>
      {picture.state === 'failed' && (
        <p className="text-xs text-destructive-text" data-testid="ui-screenshot-error">
          {t('functional.uiResult.shotFailed', { message: errorDetailMessage(picture.error, t) })}
        </p>
      )}
    </figure>
  );
}
