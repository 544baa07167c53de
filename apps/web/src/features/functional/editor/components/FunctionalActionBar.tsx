import { Play, Save, Trash2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ViewerNotice } from '@/components/viewer-notice';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { useWorkspace } from '@/lib/workspace';
import type { Busy } from '../hooks/useFunctionalPlan';
import { SaveStatus, STICKY_FOOTER_CLASS } from '@/features/call-editor';

/**
 * The foot of the API and UI list screens, always at hand (docs/reference/02-running.md §2, §5): Cancel
 * (history back), Delete for a saved plan, Save or Update, and Start with its busy label 'Starting
 * Test...'. Save, Update and Start are disabled while busy or while the list is empty.
 */
export function FunctionalActionBar({
  editor,
  disabled,
  empty,
  startLabel,
  emptyHint,
  extra,
}: {
  editor: {
    busy: Busy;
    savedId: string | null;
    dirty: boolean;
    save: () => Promise<void>;
    remove: () => Promise<void>;
    start: () => Promise<void>;
  };
  disabled: boolean;
  /** The list is empty: nothing to save or start. */
  empty: boolean;
  startLabel: string;
  /** Why Start is disabled while the list is empty. */
  emptyHint: string;
  /** More actions beside Delete (the API screen's download for aqa test). */
  extra?: ReactNode;
}) {
  const t = useT();
  const navigate = useNavigate();
  const { busy, savedId } = editor;
  const saveBusy = busy === 'saving' || busy === 'updating';
  // A viewer reads the plan: no Delete or Start, Save disabled with the reason (docs/adr/0035-workspaces-and-roles.md).
  const { readOnly } = useWorkspace();

  return (
    <div className={STICKY_FOOTER_CLASS} data-testid="functional-actions">
      <ViewerNotice className="mb-2" />
      <div className="grid grid-cols-3 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <Button variant="ghost" onClick={() => void navigate(-1)} data-testid="functional-cancel">
          <X />
          {t('functional.editor.cancel')}
        </Button>
        {savedId && !readOnly && (
          <Button
            variant="outline"
            disabled={disabled || busy !== null}
            onClick={() => void editor.remove()}
            className="text-destructive-text"
            data-testid="functional-delete"
          >
            {busy === 'deleting' ? <Spinner /> : <Trash2 />}
            {busy === 'deleting' ? t('functional.editor.deleting') : t('functional.editor.delete')}
          </Button>
        )}
        {extra}
        <SaveStatus editor={editor} className="max-sm:hidden sm:ml-auto" testId="functional-save-state" />
        <Button
          variant="outline"
          disabled={disabled || empty || busy !== null || readOnly}
          onClick={() => void editor.save()}
          className={cn(!savedId && 'max-sm:col-span-2')}
          title={readOnly ? t('workspace.viewerReason') : undefined}
          data-testid="functional-save"
        >
          {saveBusy ? <Spinner /> : <Save />}
          {savedId
            ? busy === 'updating'
              ? t('functional.editor.updating')
              : t('functional.editor.update')
            : busy === 'saving'
              ? t('functional.editor.saving')
              : t('functional.editor.save')}
        </Button>
        {!readOnly && (
          <Button
            disabled={disabled || empty || busy !== null}
            onClick={() => void editor.start()}
            className="max-sm:col-span-3"
            title={empty ? emptyHint : undefined}
            data-testid="functional-start"
          >
            {busy === 'starting' ? <Spinner /> : <Play />}
            {busy === 'starting' ? t('functional.editor.starting') : startLabel}
          </Button>
        )}
      </div>
    </div>
  );
}
