import { Download, Eye, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { screenPath } from '@/lib/screens';
import { PageHeader } from '@/components/page-header';
import { ViewerNotice } from '@/components/viewer-notice';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { cn } from '@/lib/utils';
import { usePlanEditor, type PlanEditor } from '../hooks/usePlanEditor';
import { useScriptFileActions } from '../hooks/useScriptFileActions';
import { ApiList } from './ApiList';
import { GenerateButton, RunScriptButton, ToolLimitsNotice, ValidateButton } from './PlanActionButtons';
import { PlanDetailsDialog } from './PlanDetailsDialog';
import { PlanSettingsCard } from './PlanSettingsCard';
import { ScriptPanel } from './ScriptPanel';
import { TextCommandPanel } from './TextCommandPanel';
import { ValidationResultsDialog } from './ValidationResultsDialog';
import {
  useEditorAddress,
  useEditorKey,
  PlanLoadErrorAlert,
  PlanLoadingAlert,
  PlanStateBadge,
  SaveStatus,
  STICKY_FOOTER_CLASS,
} from '@/features/call-editor';

/**
 * /create-test/url-input (docs/reference/01-authoring.md §2 "Performance: URL input"). Each visit gets a fresh editor; replacing
 * the address with ?planId= after a save keeps the editor (and its unsaved script edits) in place.
 */
export default function UrlInputPage() {
  const editorKey = useEditorKey();
  return <UrlInputEditor key={editorKey} editorKey={editorKey} />;
}

function UrlInputEditor({ editorKey }: { editorKey: string }) {
  const t = useT();
  const { planIdParam, rememberPlanId } = useEditorAddress('createTestUrl', editorKey);
  const editor = usePlanEditor({ planIdParam, rememberPlanId });
  const { form, dispatch, errors, script, busy } = editor;
  const [detailsOpen, setDetailsOpen] = useState(false);
  const { copy, download } = useScriptFileActions(script);

  const formDisabled = editor.loading || editor.loadFailed || busy === 'saving' || busy === 'running';
  const { readOnly } = useWorkspace();
  const saveDisabled = form.name.trim() === '' || busy === 'saving' || formDisabled || readOnly;

  const onSaveBarSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!saveDisabled) void editor.save();
  };

  return (
    <div className="space-y-6" data-testid="url-input-page">
      <PageHeader
        title={t('plans.title')}
        description={t('plans.subtitle')}
        actions={
          <PlanStateBadge
            saved={editor.savedId !== null}
            label={editor.savedId ? t('plans.savedPlan') : t('plans.newPlan')}
          />
        }
      />
      <ViewerNotice />

      {editor.loading && <PlanLoadingAlert label={t('plans.loadingPlan')} />}
      {editor.loadFailed && (
        <PlanLoadErrorAlert
          message={t('plans.loadFailed')}
          startNew={{ to: screenPath('createTestUrl'), label: t('plans.newPlan') }}
        />
      )}
      {editor.foreignSource && (
        <Alert variant="info" data-testid="plan-foreign-source">
          {t('plans.scriptInputUnavailable')}
        </Alert>
      )}

      <div
        className={cn(
          'grid gap-6 min-[1680px]:grid-cols-[minmax(0,1fr)_minmax(0,38rem)] min-[1680px]:items-start',
          editor.loading && 'pointer-events-none opacity-60',
        )}
        aria-busy={editor.loading || undefined}
      >
        <div className="min-w-0 space-y-6">
          <PlanSettingsCard
            form={form}
            dispatch={dispatch}
            errors={errors}
            disabled={formDisabled}
            onToolChange={editor.changeTool}
          />
          <ApiList form={form} dispatch={dispatch} errors={errors} disabled={formDisabled} variant="url" />
        </div>

        <div className="min-w-0 space-y-6 min-[1680px]:sticky min-[1680px]:top-20">
          <ActionBar
            editor={editor}
            disabled={formDisabled}
            onDetails={() => setDetailsOpen(true)}
            onDownload={download}
          />
          <ToolLimitsNotice editor={editor} />
          <ScriptPanel
            script={script}
            tool={form.tool}
            validating={busy === 'validating'}
            disabled={formDisabled}
            onValidate={() => void editor.validate()}
            onCopy={() => void copy()}
            onDownload={download}
            generateLabel={t('plans.generate')}
          />
          {editor.applyTextCommand && editor.savedId && !readOnly && (
            <TextCommandPanel apply={editor.applyTextCommand} disabled={formDisabled} />
          )}
        </div>
      </div>

      {/* The save bar (docs/reference/01-authoring.md §2): the plan name and Save, always at hand. */}
      <form onSubmit={onSaveBarSubmit} className={STICKY_FOOTER_CLASS} data-testid="save-bar">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
          <Label htmlFor="save-bar-name" className="shrink-0 max-sm:sr-only">
            {t('plans.saveBarLabel')}
          </Label>
          <Input
            id="save-bar-name"
            value={form.name}
            maxLength={200}
            autoComplete="off"
            disabled={formDisabled}
            placeholder={t('plans.saveBarPlaceholder')}
            onChange={(event) => dispatch({ type: 'setSetting', field: 'name', value: event.target.value })}
            className="sm:max-w-sm"
            data-testid="save-bar-name"
          />
          <div className="flex items-center justify-between gap-3 sm:ml-auto">
            <SaveStatus editor={editor} />
            <Button
              type="submit"
              disabled={saveDisabled}
              title={readOnly ? t('workspace.viewerReason') : undefined}
              data-testid="save-plan"
            >
              {busy === 'saving' ? <Spinner /> : <Save />}
              {busy === 'saving' ? t('plans.saving') : t('plans.save')}
            </Button>
          </div>
        </div>
      </form>

      <ValidationResultsDialog result={editor.validation} onClose={editor.closeValidation} />
      <PlanDetailsDialog
        open={detailsOpen}
        onOpenChange={setDetailsOpen}
        form={form}
        script={script.script}
      />
    </div>
  );
}

function ActionBar({
  editor,
  disabled,
  onDetails,
  onDownload,
}: {
  editor: PlanEditor;
  disabled: boolean;
  onDetails: () => void;
  onDownload: () => void;
}) {
  const t = useT();
  return (
    <Card className="p-3 sm:p-4" data-testid="plan-actions">
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <GenerateButton
          editor={editor}
          disabled={disabled}
          label={t('plans.generate')}
          className="col-span-2 sm:col-span-1"
        />
        <ValidateButton editor={editor} disabled={disabled} label={t('plans.validate')} />
        <Button variant="outline" onClick={onDetails} data-testid="view-details">
          <Eye />
          {t('plans.viewDetails')}
        </Button>
        <Button variant="outline" onClick={onDownload} data-testid="download-script">
          <Download />
          {t('plans.downloadScript')}
        </Button>
        <RunScriptButton editor={editor} disabled={disabled} />
      </div>
    </Card>
  );
}
