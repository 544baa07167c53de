import { Pencil } from 'lucide-react';
import { Link } from 'react-router';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useT } from '@/i18n';
import { editPlanPath } from '@/lib/plan-links';

/** Edit Plan: opens the plan on the screen it was written on (URL input or script input). */
export function EditPlanButton({
  plan,
  variant = 'outline',
  size = 'sm',
  className,
}: {
  plan: { id: string; source_page?: string | null };
} & Pick<ButtonProps, 'variant' | 'size' | 'className'>) {
  const t = useT();
  const to = editPlanPath(plan);
  if (to) {
    return (
      <Button asChild variant={variant} size={size} className={className}>
        <Link to={to} data-testid="edit-plan">
          <Pencil />
          {t('history.plan.edit')}
        </Link>
      </Button>
    );
  }
  return (
    <ComingSoon>
      <Button
        variant={variant}
        size={size}
        className={className}
        aria-disabled="true"
        onClick={preventActivation}
        data-testid="edit-plan"
      >
        <Pencil />
        {t('history.plan.edit')}
      </Button>
    </ComingSoon>
  );
}
