import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/** The red ghost Delete button of a plan or a run: a spinner in place of its icon while `busy`. */
export function DeleteButton({
  busy,
  disabled,
  onClick,
  title,
  children,
  'data-testid': testId,
}: {
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  title?: string;
  children: ReactNode;
  'data-testid': string;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-destructive-text hover:bg-destructive-soft"
      onClick={onClick}
      disabled={disabled}
      title={title}
      data-testid={testId}
    >
      {busy ? <Spinner /> : <Trash2 />}
      {children}
    </Button>
  );
}
