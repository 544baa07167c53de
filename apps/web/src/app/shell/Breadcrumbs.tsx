import { Fragment } from 'react';
import { Link, useMatches } from 'react-router';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { isScreenAvailable, screenPath, SCREENS, type ScreenId } from '@/lib/screens';

/** Route `handle` of every registered screen: lets the shell find the current screen's breadcrumbs. */
export interface ScreenHandle {
  screen: ScreenId;
}

function isScreenHandle(handle: unknown): handle is ScreenHandle {
  return (
    typeof handle === 'object' && handle !== null && 'screen' in handle && typeof handle.screen === 'string'
  );
}

export function useCurrentScreen(): ScreenId | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isScreenHandle(handle)) return handle.screen;
  }
  return null;
}

/** "PLANS > Create Test > Input URLs": the current screen's trail from the registry. */
export function Breadcrumbs({ className }: { className?: string }) {
  const t = useT();
  const screen = useCurrentScreen();
  if (!screen) return null;
  const crumbs = SCREENS[screen].breadcrumbs;
  return (
    <nav aria-label={t('header.breadcrumb')} className={cn('min-w-0', className)} data-testid="breadcrumbs">
      <ol className="flex min-w-0 items-center gap-1.5 text-[13px] font-medium">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const label = t(crumb.label);
          return (
            <Fragment key={`${crumb.label}-${index}`}>
              {index > 0 && (
                <li aria-hidden className="select-none text-muted-foreground/60">
                  &gt;
                </li>
              )}
              <li className={cn('min-w-0 truncate', last ? 'text-foreground' : 'text-muted-foreground')}>
                {crumb.to && !last && isScreenAvailable(crumb.to) ? (
                  <Link
                    to={screenPath(crumb.to)}
                    className="rounded-sm transition-colors hover:text-foreground"
                  >
                    {label}
                  </Link>
                ) : (
                  <span aria-current={last ? 'page' : undefined}>{label}</span>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
