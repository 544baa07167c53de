import { Eye } from 'lucide-react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { useWorkspace } from '@/lib/workspace';

/**
 * Said at the top of a screen whose actions a viewer is not offered (docs/adr/0035-workspaces-and-roles.md):
 * why Run, Save or Delete are not there. Nothing for editors and owners.
 */
export function ViewerNotice({ className }: { className?: string }) {
  const t = useT();
  const workspace = useWorkspace();
  if (!workspace.readOnly) return null;
  return (
    <p
      role="note"
      className={cn(
        'flex items-start gap-2 rounded-lg border border-border bg-muted/50 px-3 py-2 text-[13px] text-muted-foreground',
        className,
      )}
      data-testid="viewer-notice"
    >
      <Eye aria-hidden className="mt-0.5 size-4 shrink-0" />
      {t('workspace.viewerNotice', { name: workspace.summary?.name ?? '' })}
    </p>
  );
}
