import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * A native select with the look of the shared Select trigger. The call editor has many small choices
 * (method, types, operators); a native control keeps them quick on phones and simple to drive from tests.
 */
export function NativeSelect({
  className,
  selectClassName,
  children,
  ...props
}: ComponentProps<'select'> & {
  /** Classes of the select itself (className goes to its wrapper). */ selectClassName?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <select
        data-slot="native-select"
        className={cn(
          'h-10 w-full min-w-0 appearance-none truncate rounded-lg border border-input bg-card py-0 pl-3 pr-9 text-sm text-foreground shadow-xs',
          'transition-[border-color,box-shadow] duration-150 focus-visible:border-ring focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-ring/25',
          'disabled:cursor-not-allowed disabled:opacity-55 aria-invalid:border-destructive',
          selectClassName,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
