import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { Label } from './ui/label';

/** Accessibility wiring a FormField hands to its control. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

export interface FormFieldProps {
  id: string;
  label: ReactNode;
  required?: boolean;
  /** Shown in red under the control; the control gets aria-invalid and points at it. */
  error?: string | undefined;
  errorTestId?: string;
  hint?: ReactNode;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function FormField({
  id,
  label,
  required,
  error,
  errorTestId,
  hint,
  className,
  children,
}: FormFieldProps) {
  const t = useT();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <>
            <span aria-hidden className="ml-0.5 text-destructive">
              *
            </span>
            <span className="sr-only"> ({t('common.required')})</span>
          </>
        )}
      </Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
        'aria-required': required ? true : undefined,
      })}
      {error && (
        <p id={errorId} data-testid={errorTestId} className="text-[13px] leading-5 text-destructive">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="text-[13px] leading-5 text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
