import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { Button, type ButtonProps } from '@/components/ui/button';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';

export interface ScreenButtonProps extends Pick<ButtonProps, 'variant' | 'size' | 'className'> {
  screen: ScreenId;
  params?: Record<string, string>;
  /** Router state handed to the target screen (e.g. the test and plan ids of a result). */
  state?: unknown;
  children: ReactNode;
  'data-testid'?: string;
}

/** A button that opens a screen when it exists, and is a disabled "Coming soon" button until then. */
export function ScreenButton({ screen, params, state, children, ...buttonProps }: ScreenButtonProps) {
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
