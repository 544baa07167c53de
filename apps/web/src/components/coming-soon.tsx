import type { ReactElement } from 'react';
import { useT } from '@/i18n';
import { Tooltip } from './ui/tooltip';

/**
 * Wraps a control whose screen does not exist yet: the child is rendered as given (it must carry
 * aria-disabled="true" and ignore activation) and gets a "Coming soon" tooltip on hover and focus.
 */
export function ComingSoon({
  children,
  side = 'top',
}: {
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom';
}) {
  const t = useT();
  return (
    <Tooltip content={t('common.comingSoon')} side={side}>
      {children}
    </Tooltip>
  );
}

/** Click/Enter handler for aria-disabled controls: they stay focusable but do nothing. */
export function preventActivation(event: { preventDefault: () => void }): void {
  event.preventDefault();
}
