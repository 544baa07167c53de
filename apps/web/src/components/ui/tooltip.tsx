import { Slot } from '@radix-ui/react-slot';
import {
  useId,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { createPortal } from 'react-dom';
import { cn } from '@/lib/utils';

type Side = 'top' | 'right' | 'bottom';

interface Placement {
  side: Side;
  style: CSSProperties;
}

const GAP_PX = 8;
/** Room a short tooltip needs beside its trigger before we place it below instead. */
const SIDE_ROOM_PX = 140;

function place(rect: DOMRect, preferred: Side): Placement {
  let side = preferred;
  if (side === 'right' && rect.right + SIDE_ROOM_PX > window.innerWidth) side = 'bottom';
  if (side === 'top' && rect.top < 48) side = 'bottom';
  const centerX = Math.min(Math.max(rect.left + rect.width / 2, 64), window.innerWidth - 64);
  switch (side) {
    case 'right':
      return {
        side,
        style: { left: rect.right + GAP_PX, top: rect.top + rect.height / 2, transform: 'translateY(-50%)' },
      };
    case 'top':
      return { side, style: { left: centerX, top: rect.top - GAP_PX, transform: 'translate(-50%, -100%)' } };
    case 'bottom':
      return { side, style: { left: centerX, top: rect.bottom + GAP_PX, transform: 'translateX(-50%)' } };
  }
}

export interface TooltipProps {
  content: ReactNode;
  side?: Side;
  /** One element that can take focus; it receives the hover, focus and aria-describedby wiring. */
  children: ReactElement;
  className?: string;
}

/**
 * A small tooltip shown on hover and keyboard focus, dismissed with Escape. It renders into a portal with
 * fixed positioning so scrolling containers (the sidebar) cannot clip it; the text is also always present
 * for assistive technology through aria-describedby.
 */
export function Tooltip({ content, side = 'top', children, className }: TooltipProps) {
  const id = useId();
  const [placement, setPlacement] = useState<Placement | null>(null);
  const show = (event: SyntheticEvent<HTMLElement>) =>
    setPlacement(place(event.currentTarget.getBoundingClientRect(), side));
  const hide = () => setPlacement(null);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') hide();
  };
  return (
    <>
      <Slot
        aria-describedby={id}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
        onKeyDown={onKeyDown}
      >
        {children}
      </Slot>
      <span id={id} className="sr-only">
        {content}
      </span>
      {placement &&
        createPortal(
          <div
            aria-hidden
            data-side={placement.side}
            style={placement.style}
            className={cn(
              'pointer-events-none fixed z-[60] max-w-64 rounded-md bg-foreground px-2 py-1 text-xs font-medium text-background shadow-pop animate-fade-in',
              className,
            )}
          >
            {content}
          </div>,
          document.body,
        )}
    </>
  );
}
