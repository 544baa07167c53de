import { cva, type VariantProps } from 'class-variance-authority';
import { CircleCheck, CircleExclamationPoint, Info, TriangleExclamationPoint } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

const alertVariants = cva('relative flex w-full gap-3 rounded-lg border px-4 py-3 text-sm', {
  variants: {
    variant: {
      default: 'border-border bg-card text-foreground',
      info: 'border-info/25 bg-info-soft text-info-text',
      success: 'border-success/25 bg-success-soft text-success-text',
      warning: 'border-warning/25 bg-warning-soft text-warning-text',
      destructive: 'border-destructive/25 bg-destructive-soft text-destructive-text',
    },
  },
  defaultVariants: { variant: 'default' },
});

const ICONS = {
  default: Info,
  info: Info,
  success: CircleCheck,
  warning: TriangleExclamationPoint,
  destructive: CircleExclamationPoint,
} as const;

export type AlertProps = Omit<ComponentProps<'div'>, 'title'> &
  VariantProps<typeof alertVariants> & { title?: ReactNode; icon?: boolean };

/** An inline message box. Errors are announced at once (role="alert"); other variants politely. */
export function Alert({ className, variant, title, icon = true, children, role, ...props }: AlertProps) {
  const Icon = ICONS[variant ?? 'default'];
  return (
    <div
      data-slot="alert"
      role={role ?? (variant === 'destructive' ? 'alert' : 'status')}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    >
      {icon && <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />}
      <div className="min-w-0 flex-1 space-y-0.5">
        {title && <p className="font-medium leading-5">{title}</p>}
        {children && <div className={cn('leading-5', title && 'opacity-90')}>{children}</div>}
      </div>
    </div>
  );
}
