import { Download, Eye, FileUp, Save } from 'lucide-react';
import { useState } from 'react';
import { screenPath } from '@/lib/screens';
import { PageHeader } from '@/components/page-header';
import { ViewerNotice } from '@/components/viewer-notice';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { cn } from '@/lib/utils';
import { usePlanEditor, type PlanEditor } from '../hooks/usePlanEditor';
import { useScriptFileActions } from '../hooks/useScriptFileActions';
import { SCRIPT_TOOL_OPTIONS } from '../model/plan-form';
import { uploadScriptFileName } from '../model/upload-source';
import { ApiList } from './ApiList';
import { ImportSummary } from './ImportSummary';
import { GenerateButton, RunScriptButton, ToolLimitsNotice, ValidateButton } from './PlanActionButtons';
import { PlanDetailsDialog } from './PlanDetailsDialog';
import { PlanSettingsCard } from './PlanSettingsCard';
import { ScriptPanel } from './ScriptPanel';
import { UploadStep, type ImportedApis } from './UploadStep';
import { ValidationResultsCard } from './ValidationResultsDialog';
import {
  useEditorAddress,
  useEditorKey,
  PlanLoadErrorAlert,
  PlanLoadingAlert,
  PlanStateBadge,
  SaveStatus,
} from '@/features/call-editor';

type Step = 'upload' | 'configure';

/**
 * /create-test/script-input (docs/reference/01-authoring.md §2 "Performance: script upload"): step 1 uploads an API description,
 * step 2 configures, generates, validates, saves and runs the plan made from it. A saved plan opens at
 * step 2. Each visit gets a fresh editor; ?planId= after a save keeps it in place.
 */
export default function ScriptInputPage() {
  const editorKey = useEditorKey();
  return <ScriptInputEditor key={editorKey} editorKey={editorKey} />;
}

function StepIndicator({ step }: { step: Step }) {
  const t = useT();
  const steps: { id: Step; label: string }[] = [
    { id: 'upload', label: t('scriptInput.stepUpload') },
    { id: 'configure', label: t('scriptInput.stepConfigure') },
  ];
  return (
    <ol className="flex flex-wrap items-center gap-2 text-sm" data-testid="step-indicator">
      {steps.map((item, index) => {
        const current = item.id === step;
        return (
          <li key={item.id} className="flex items-center gap-2" aria-current={current ? 'step' : undefined}>
            {index > 0 && <span aria-hidden className="h-px w-6 bg-border" />}
            <span
              className={cn(
                'num flex size-6 items-center justify-center rounded-full text-xs font-semibold',
                current ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
              )}
            >
              {index + 1}
            </span>
            <span className={cn(current ? 'font-medium text-foreground' : 'text-muted-foreground')}>
              {item.label}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function ScriptInputEditor({ editorKey }: { editorKey: string }) {
  const t = useT();
  const { planIdParam, rememberPlanId } = useEditorAddress('createTestScript', editorKey);
  const editor = usePlanEditor({
    planIdParam,
    rememberPlanId,
    sourcePage: 'script-input',
    fileName: uploadScriptFileName,
  });
  const { form, script, busy } = editor;
  // docs/reference/01-authoring.md §2: a saved plan goes straight to step 2.
  const [step, setStep] = useState<Step>(() => (editor.openedWithPlan ? 'configure' : 'upload'));
  const [imported, setImported] = useState<ImportedApis | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const { copy, download } = useScriptFileActions(script);

  const formDisabled = editor.loading || editor.loadFailed || busy === 'saving' || busy === 'running';
  const apisInPlan = form.entries.filter((entry) => entry.url.trim() !== '').length;

  const onImported = (result: ImportedApis) => {
    // A document's title names the plan; a pasted cURL command has none worth keeping (the importer's
    // title only says "the cURL command"), so the plan keeps the name it had.
    const suggestedName = result.kind === 'curl' ? '' : result.info.title || result.source;
    editor.importEntries(result.entries, suggestedName, result.settings);
    setImported(result);
    setStep('configure');
  };

  return (
    <div className="space-y-6" data-testid="script-input-page" data-step={step}>
      <PageHeader
        title={t('scriptInput.title')}
        description={t('scriptInput.subtitle')}
        actions={
          <>
            {step === 'configure' && !editor.loadFailed && (
              <Button
                variant="outline"
                size="sm"
                disabled={formDisabled}
                onClick={() => setStep('upload')}
                data-testid="upload-another"
              >
                <FileUp />
                {t('scriptInput.uploadAnother')}
              </Button>
            )}
            <PlanStateBadge
              saved={editor.savedId !== null}
              label={editor.savedId ? t('plans.savedPlan') : t('plans.newPlan')}
              className="h-8"
            />
          </>
        }
      />
      <ViewerNotice />

      {editor.loadFailed ? (
        <PlanLoadErrorAlert
          message={t('plans.loadFailed')}
          startNew={{ to: screenPath('createTestScript'), label: t('plans.newPlan') }}
        />
      ) : (
        <>
          <StepIndicator step={step} />
          {step === 'upload' ? (
            <UploadStep
              onImported={onImported}
              replacing={editor.openedWithPlan || imported ? apisInPlan : 0}
              onCancel={editor.openedWithPlan || imported ? () => setStep('configure') : undefined}
            />
          ) : (
            <ConfigureStep
              editor={editor}
              imported={imported}
              disabled={formDisabled}
              onDetails={() => setDetailsOpen(true)}
              onCopy={() => void copy()}
              onDownload={download}
            />
          )}
        </>
      )}

      <PlanDetailsDialog
        open={detailsOpen}
        onOpenChange={setDetailsOpen}
        form={form}
        script={script.script}
      />
    </div>
  );
}

function ConfigureStep({
  editor,
  imported,
  disabled,
  onDetails,
  onCopy,
  onDownload,
}: {
  editor: PlanEditor;
  imported: ImportedApis | null;
  disabled: boolean;
  onDetails: () => void;
  onCopy: () => void;
  onDownload: () => void;
}) {
  const t = useT();
  const { form, dispatch, errors, script, busy } = editor;
  return (
    <>
      {editor.loading && <PlanLoadingAlert label={t('plans.loadingPlan')} />}
      {imported && <ImportSummary imported={imported} />}
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
            disabled={disabled}
            onToolChange={editor.changeTool}
            title={t('scriptInput.configTitle')}
            description={t('scriptInput.configText')}
            tools={SCRIPT_TOOL_OPTIONS}
          />
          <ApiList form={form} dispatch={dispatch} errors={errors} disabled={disabled} variant="script" />
        </div>

        <div className="min-w-0 space-y-6 min-[1680px]:sticky min-[1680px]:top-20">
          <ScriptActions editor={editor} disabled={disabled} onDetails={onDetails} onDownload={onDownload} />
          <ToolLimitsNotice editor={editor} />
          {editor.validation && (
            <ValidationResultsCard result={editor.validation} onClose={editor.closeValidation} />
          )}
          <ScriptPanel
            script={script}
            tool={form.tool}
            validating={busy === 'validating'}
            disabled={disabled}
            onValidate={() => void editor.validate()}
            onCopy={onCopy}
            onDownload={onDownload}
            generateLabel={t('scriptInput.generate')}
          />
        </div>
      </div>
    </>
  );
}

/** The buttons of docs/reference/01-authoring.md §2 "Performance: script upload", each with its busy label. */
function ScriptActions({
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
  const { busy, form } = editor;
  // docs/reference/01-authoring.md §5: Save is disabled with a blank plan name, while saving, or while the form is disabled.
  const { readOnly } = useWorkspace();
  const saveDisabled = form.name.trim() === '' || busy === 'saving' || disabled || readOnly;
  // docs/reference/01-authoring.md §5: "Validate, Copy and Download are disabled with no script" — this screen's Validate Script
  // sits in the action row, away from the script panel that disables its own.
  const noScript = editor.script.script === '';
  return (
    <Card className="space-y-3 p-3 sm:p-4" data-testid="plan-actions">
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <GenerateButton
          editor={editor}
          disabled={disabled}
          label={t('scriptInput.generate')}
          className="col-span-2 sm:col-span-1"
        />
        <ValidateButton editor={editor} disabled={disabled || noScript} label={t('plans.validateScript')} />
        <Button
          variant="outline"
          disabled={saveDisabled}
          onClick={() => void editor.save()}
          title={readOnly ? t('workspace.viewerReason') : undefined}
          data-testid="save-plan"
        >
          {busy === 'saving' ? <Spinner /> : <Save />}
          {busy === 'saving'
            ? t('plans.saving')
            : editor.savedId
              ? t('scriptInput.update')
              : t('scriptInput.save')}
        </Button>
        <RunScriptButton editor={editor} disabled={disabled} />
        <Button variant="outline" onClick={onDetails} data-testid="view-details">
          <Eye />
          {t('scriptInput.details')}
        </Button>
        <Button variant="outline" onClick={onDownload} data-testid="download-script">
          <Download />
          {t('plans.download')}
        </Button>
      </div>
      <SaveStatus editor={editor} />
    </Card>
  );
}
