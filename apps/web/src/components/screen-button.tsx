import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useT } from '@/i18n';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { useWorkspace } from '@/lib/workspace';

export interface ScreenButtonProps extends Pick<ButtonProps, 'variant' | 'size' | 'className'> {
  screen: ScreenId;
  params?: Record<string, string>;
  /** Router state handed to the target screen (e.g. the test and plan ids of a result). */
  state?: unknown;
  children: ReactNode;
  'data-testid'?: string;
  /** Opens an editor for a new plan: disabled for a viewer, with the reason (docs/adr/0035-workspaces-and-roles.md). */
  creates?: boolean;
}

/** A button that opens a screen when it exists, and is a disabled "Coming soon" button until then. */
export function ScreenButton({
  screen,
  params,
  state,
  creates,
  children,
  ...buttonProps
}: ScreenButtonProps) {
  const t = useT();
  const { readOnly } = useWorkspace();
  if (creates && readOnly) {
    return (
      <Button
        {...buttonProps}
        aria-disabled="true"
        title={t('workspace.viewerReason')}
        onClick={preventActivation}
      >
        {children}
      </Button>
    );
  }
  if (isScreenAvailable(screen)) {
    return (
      <Button asChild {...buttonProps}>
        <Link to={screenPath(screen, params)} state={state}>
          {children}
        </Link>
      </Button>
    );
  }
  return (
    <ComingSoon>
      <Button {...buttonProps} aria-disabled="true" onClick={preventActivation}>
        {children}
      </Button>
    </ComingSoon>
  );
}
