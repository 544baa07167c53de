import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const inputClassName = cn(
  'flex h-10 w-full min-w-0 rounded-lg border border-input bg-card px-3 text-sm text-foreground shadow-xs',
  'placeholder:text-muted-foreground/80 transition-[border-color,box-shadow] duration-150',
  'focus-visible:border-ring focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-ring/25',
  'disabled:cursor-not-allowed disabled:opacity-55',
  'read-only:bg-muted/60 read-only:focus-visible:ring-0',
  'aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/25',
);

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input data-slot="input" type={type} className={cn(inputClassName, className)} {...props} />;
}
