import { Pencil } from 'lucide-react';
import { Link } from 'react-router';
import { ComingSoon, preventActivation } from '@/components/coming-soon';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useT } from '@/i18n';
import { editPlanPath } from '@/lib/plan-links';

type EditButtonLook = Pick<ButtonProps, 'variant' | 'size' | 'className'>;

/**
 * Edit Plan to the given editor path; a disabled "Coming soon" button when the plan's editor is not built
 * (`to` null). The performance and the functional plans each find their own path.
 */
export function EditPlanLinkButton({
  to,
  variant = 'outline',
  size = 'sm',
  className,
}: { to: string | null } & EditButtonLook) {
  const t = useT();
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

/** Edit Plan: opens the plan on the screen it was written on (URL input or script input). */
export function EditPlanButton({
  plan,
  ...look
}: {
  plan: { id: string; source_page?: string | null };
} & EditButtonLook) {
  return <EditPlanLinkButton to={editPlanPath(plan)} {...look} />;
}
