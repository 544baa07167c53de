import { Play, RefreshCw, Save, X } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { ViewerNotice } from '@/components/viewer-notice';
import { cn } from '@/lib/utils';
import { FunctionalEditorHead } from '../../editor/components/FunctionalEditorHead';
import { FunctionalSettingsCard, UI_NUMBER_FIELDS } from '../../editor/components/FunctionalSettingsCard';
import type { FunctionalFormAction } from '../../editor/model/functional-form';
import { useScriptEditor, type ScriptEditor } from '../hooks/useScriptEditor';
import { rulesOf } from '../model/script-form';
import { DataFilesCard } from './DataFilesCard';
import { ParsedApiList } from './ParsedApiList';
import { ScriptRulesPanel } from './ScriptRulesPanel';
import { ScriptSourceCard } from './ScriptSourceCard';
import { SeleniumPageList } from './SeleniumPageList';
import { SaveStatus, STICKY_FOOTER_CLASS, useEditorAddress, useEditorKey } from '@/features/call-editor';

/**
 * /functional-test/script-input (docs/reference/02-running.md §2 "Functional Script Input screen"): a
 * Taurus script, read as it is typed into the APIs that will run and the warnings of what will not, with
 * the plan settings, per-API and global validation rules, Save / Update and Start; or, in its Selenium
 * variant, a Selenium-style script read into the browser steps that will run (its checks are its own
 * assert actions, so it has no validation rules or data files). Each visit gets a fresh editor; ?planId=
 * loads a saved script plan in its own variant.
 */
export default function FunctionalScriptInputPage() {
  const editorKey = useEditorKey();
  return <FunctionalScriptEditor key={editorKey} editorKey={editorKey} />;
}

function FunctionalScriptEditor({ editorKey }: { editorKey: string }) {
  const t = useT();
  const { planIdParam, rememberPlanId } = useEditorAddress('functionalScript', editorKey);
  const editor = useScriptEditor({ planIdParam, rememberPlanId });
  const { form, dispatch, read, seleniumRead } = editor;
  const selenium = form.framework === 'selenium';
  const disabled = editor.loading || editor.loadError !== null;
  const errors: Record<string, string> = {};
  for (const problem of editor.problems) errors[problem.field] ??= problem.message;
  const settingsDispatch = (action: FunctionalFormAction) => {
    if (action.type === 'setSetting') dispatch(action);
  };

  return (
    <div className="space-y-6 pb-4" data-testid="functional-script-input-page">
      <FunctionalEditorHead
        title={t('functional.script.title')}
        description={t('functional.script.subtitle')}
        editor={editor}
      />

      <div className={cn('space-y-6', editor.loading && 'pointer-events-none opacity-60')}>
        <FunctionalSettingsCard
          form={form.settings}
          dispatch={settingsDispatch}
          errors={errors}
          disabled={disabled}
          {...(selenium ? { numberFields: UI_NUMBER_FIELDS, text: t('functional.ui.configText') } : {})}
        />

        <ScriptSourceCard
          form={form}
          read={selenium ? seleniumRead : read}
          readFor={editor.readFor}
          dispatch={dispatch}
          disabled={disabled}
          error={errors.script_content ? t('functional.script.scriptRequired') : undefined}
        />

        {selenium && seleniumRead.ok && <SeleniumPageList pages={seleniumRead.pages} />}

        {!selenium && read.ok && read.dataSources.length > 0 && (
          <DataFilesCard
            sources={read.dataSources}
            files={form.dataFiles}
            dispatch={dispatch}
            disabled={disabled}
          />
        )}

        {!selenium && read.ok && (
          <ParsedApiList apis={read.apis} form={form} dispatch={dispatch} disabled={disabled} />
        )}

        {!selenium && (
          <Card className="space-y-3 p-4 sm:p-5" data-testid="global-rules">
            <h2 className="text-base font-semibold">{t('functional.script.globalTitle')}</h2>
            <ScriptRulesPanel
              panelId="script-global"
              target={null}
              rules={rulesOf(form, null)}
              dispatch={dispatch}
              testId="global"
              labels={{
                title: t('functional.script.globalRules'),
                text: t('functional.script.globalText'),
                empty: t('functional.script.noGlobalRules'),
              }}
            />
          </Card>
        )}

        <HelpBox framework={selenium ? 'selenium' : 'taurus'} />
      </div>

      <ActionBar editor={editor} disabled={disabled} />
    </div>
  );
}

/**
 * The help boxes of docs/reference/02-running.md §2, one a framework: Taurus's assert section
 * (status_code, contains, jsonpath), and Selenium's click, input, select and wait.
 */
const HELP = {
  taurus: {
    title: 'functional.script.helpTitle',
    items: [
      'functional.script.helpAssert',
      'functional.script.helpStatus',
      'functional.script.helpContains',
      'functional.script.helpJsonPath',
      'functional.script.helpWarnings',
    ],
  },
  selenium: {
    title: 'functional.selenium.helpTitle',
    items: [
      'functional.selenium.helpClick',
      'functional.selenium.helpInput',
      'functional.selenium.helpSelect',
      'functional.selenium.helpWait',
      'functional.selenium.helpCheck',
    ],
  },
} as const;

function HelpBox({ framework }: { framework: keyof typeof HELP }) {
  const t = useT();
  const help = HELP[framework];
  return (
    <Alert variant="info" title={t(help.title)} data-testid="script-help">
      <ul className="list-disc space-y-1 pl-5 text-[13px] leading-5">
        {help.items.map((item) => (
          <li key={item}>{t(item)}</li>
        ))}
      </ul>
    </Alert>
  );
}

/**
 * Cancel (history back), Save Test Plan or Update Test Plan (a saved plan), Start Test; disabled while
 * busy or when the script is blank, with the busy labels of docs/reference/02-running.md §2.
 */
function ActionBar({ editor, disabled }: { editor: ScriptEditor; disabled: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const { busy, savedId } = editor;
  const blank = editor.form.script.trim() === '';
  // A viewer reads the script: Save and Update disabled with the reason, no Start (docs/adr/0035-workspaces-and-roles.md).
  const { readOnly } = useWorkspace();
  const off = disabled || blank || busy !== null || readOnly;
  const viewerReason = readOnly ? t('workspace.viewerReason') : undefined;

  return (
    <div className={STICKY_FOOTER_CLASS} data-testid="functional-actions">
      <ViewerNotice className="mb-2" />
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <Button variant="ghost" onClick={() => void navigate(-1)} data-testid="functional-cancel">
          <X />
          {t('functional.script.cancel')}
        </Button>
        <SaveStatus editor={editor} className="max-sm:hidden sm:ml-auto" testId="functional-save-state" />
        <Button
          variant="outline"
          disabled={off}
          onClick={() => void editor.save('save')}
          title={viewerReason}
          data-testid="functional-save"
        >
          {busy === 'saving' ? <Spinner /> : <Save />}
          {busy === 'saving' ? t('functional.script.saving') : t('functional.script.save')}
        </Button>
        {savedId && (
          <Button
            variant="outline"
            disabled={off}
            onClick={() => void editor.save('update')}
            title={viewerReason}
            data-testid="functional-update"
          >
            {busy === 'updating' ? <Spinner /> : <RefreshCw />}
            {busy === 'updating' ? t('functional.script.updating') : t('functional.script.update')}
          </Button>
        )}
        {!readOnly && (
          <Button
            disabled={off}
            onClick={() => void editor.start()}
            className="max-sm:col-span-2"
            title={blank ? t('functional.script.scriptRequired') : undefined}
            data-testid="functional-start"
          >
            {busy === 'starting' ? <Spinner /> : <Play />}
            {busy === 'starting' ? t('functional.script.starting') : t('functional.script.start')}
          </Button>
        )}
      </div>
    </div>
  );
}
