import { RotateCw, TriangleExclamationPoint } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/** Shown when a screen throws or its code cannot be loaded (e.g. after a deploy replaced the chunks). */
export function RouteError() {
  const t = useT();
  return (
    <div className="flex min-h-dvh items-center justify-center bg-background p-6">
      <div className="w-full max-w-sm rounded-xl border border-border bg-card p-8 text-center shadow-card">
        <span className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-destructive-soft text-destructive-text">
          <TriangleExclamationPoint aria-hidden className="size-6" />
        </span>
        <h1 className="text-lg font-semibold">{t('routeError.title')}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{t('routeError.text')}</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RotateCw />
          {t('routeError.reload')}
        </Button>
      </div>
    </div>
  );
}
