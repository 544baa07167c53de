import { FileUp, Play, Plus, Save, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import {
  callErrorMessage,
  SaveStatus,
  STICKY_FOOTER_CLASS,
  useEditorAddress,
  useEditorKey,
} from '@/features/plans';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { useFunctionalEditor, type FunctionalEditor } from '../hooks/useFunctionalEditor';
import { newApiForm, type FunctionalApiForm } from '../model/functional-form';
import { importApisFromFile } from '../model/import-file';
import type { Problem } from '../model/plan-check';
import { CliDownloadButton } from './CliDownload';
import { FilePickButton } from './FilePickButton';
import { FunctionalEditorHead } from './FunctionalEditorHead';
import { FunctionalApiCard } from './FunctionalApiCard';
import { FunctionalSettingsCard } from './FunctionalSettingsCard';

/**
 * /functional-test/url-input (docs/reference/02-running.md §2 "Functional URL Input screen"). Each visit
 * gets a fresh editor; writing ?planId= into the address after a save keeps it.
 */
export default function FunctionalUrlInputPage() {
  const editorKey = useEditorKey();
  return <FunctionalUrlEditor key={editorKey} editorKey={editorKey} />;
}

/** Problems grouped where the form shows them: plan fields by name, API fields per card. */
function errorsOf(problems: readonly Problem[]) {
  const plan: Record<string, string> = {};
  const apis: Record<string, Record<string, string>> = {};
  for (const { field, message } of problems) {
    const match = /^api:([^:]+):(.+)$/.exec(field);
    if (match?.[1] && match[2]) {
      const card = (apis[match[1]] ??= {});
      card[match[2]] ??= message;
    } else {
      plan[field] ??= message;
    }
  }
  return { plan, apis };
}

function FunctionalUrlEditor({ editorKey }: { editorKey: string }) {
  const t = useT();
  const confirm = useConfirm();
  const { planIdParam, rememberPlanId } = useEditorAddress('functionalUrl', editorKey);
  const editor = useFunctionalEditor({ planIdParam, rememberPlanId });
  const { form, dispatch } = editor;
  const errors = errorsOf(editor.problems);
  const disabled = editor.loading || editor.loadError !== null;

  const removeApi = (api: FunctionalApiForm, index: number) => {
    const name = api.entry.name.trim() || api.entry.url.trim() || t('functional.editor.unnamedApi');
    const question = {
      message: t('functional.editor.confirmRemove', { number: index + 1, name }),
      confirmLabel: t('functional.editor.confirmRemoveAction'),
      destructive: true,
    };
    void confirm(question).then((confirmed) => {
      if (confirmed) dispatch({ type: 'removeApi', entryId: api.entry.id });
    });
  };

  return (
    <div className="space-y-6 pb-4" data-testid="functional-url-input-page">
      <FunctionalEditorHead
        title={t('functional.editor.title')}
        description={t('functional.editor.subtitle')}
        editor={editor}
      />

      <div className={cn('space-y-6', editor.loading && 'pointer-events-none opacity-60')}>
        <FunctionalSettingsCard form={form} dispatch={dispatch} errors={errors.plan} disabled={disabled} />

        <section className="space-y-3" aria-labelledby="functional-apis-title" data-testid="functional-apis">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <div className="space-y-0.5">
              <h2 id="functional-apis-title" className="flex items-center gap-2 text-base font-semibold">
                {t('functional.editor.apisTitle')}
                <Badge variant="secondary" className="num" data-testid="functional-api-count">
                  {form.apis.length}
                </Badge>
              </h2>
              <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.editor.apisText')}</p>
            </div>
            <div className="flex flex-wrap gap-2">
              <ImportApisButton editor={editor} disabled={disabled} />
              <Button
                onClick={() => dispatch({ type: 'addApi', api: newApiForm() })}
                disabled={disabled}
                data-testid="add-api"
              >
                <Plus />
                {t('functional.editor.addApi')}
              </Button>
            </div>
          </div>
          {errors.plan.apis && (
            <p className="text-[13px] leading-5 text-destructive" data-testid="apis-error">
              {editor.problemText({ field: 'apis', message: errors.plan.apis })}
            </p>
          )}

          {form.apis.length === 0 ? (
            <Card
              className="flex flex-col items-center gap-2 border-dashed px-4 py-10 text-center"
              data-testid="functional-no-apis"
            >
              <p className="text-sm font-medium">{t('functional.editor.noApis')}</p>
              <p className="max-w-md text-[13px] text-muted-foreground">
                {t('functional.editor.noApisText')}
              </p>
            </Card>
          ) : (
            <ol className="space-y-4">
              {form.apis.map((api, index) => (
                <li key={api.entry.id}>
                  <FunctionalApiCard
                    api={api}
                    index={index}
                    count={form.apis.length}
                    dispatch={dispatch}
                    errors={errors.apis[api.entry.id] ?? {}}
                    onRemove={removeApi}
                    disabled={disabled}
                  />
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <ActionBar editor={editor} disabled={disabled} />
    </div>
  );
}

/**
 * Cancel, Save or Update and Delete, and Start, always at hand at the foot of the screen; a saved plan
 * also downloads for `aqa test`.
 */
function ActionBar({ editor, disabled }: { editor: FunctionalEditor; disabled: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const { busy, savedId } = editor;
  const noApis = editor.form.apis.length === 0;
  const saveBusy = busy === 'saving' || busy === 'updating';

  return (
    <div className={STICKY_FOOTER_CLASS} data-testid="functional-actions">
      <div className="grid grid-cols-3 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <Button variant="ghost" onClick={() => void navigate(-1)} data-testid="functional-cancel">
          <X />
          {t('functional.editor.cancel')}
        </Button>
        {savedId && (
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
        <CliDownloadButton
          plan={editor.savedPlan}
          dirty={editor.dirty}
          disabled={disabled || busy !== null}
          className="max-sm:order-last max-sm:col-span-3"
        />
        <SaveStatus editor={editor} className="max-sm:hidden sm:ml-auto" testId="functional-save-state" />
        <Button
          variant="outline"
          disabled={disabled || noApis || busy !== null}
          onClick={() => void editor.save()}
          className={cn(!savedId && 'max-sm:col-span-2')}
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
        <Button
          disabled={disabled || noApis || busy !== null}
          onClick={() => void editor.start()}
          className="max-sm:col-span-3"
          title={noApis ? t('functional.editor.needsApi') : undefined}
          data-testid="functional-start"
        >
          {busy === 'starting' ? <Spinner /> : <Play />}
          {busy === 'starting' ? t('functional.editor.starting') : t('functional.editor.start')}
        </Button>
      </div>
    </div>
  );
}

/** "Import APIs from file": an OpenAPI / Swagger document or a Postman collection, its APIs appended. */
function ImportApisButton({ editor, disabled }: { editor: FunctionalEditor; disabled: boolean }) {
  const t = useT();
  const notice = useNotice();
  const [importing, setImporting] = useState(false);

  const onFile = async (file: File) => {
    setImporting(true);
    try {
      const { apis, skipped, firstProblem } = await importApisFromFile(file);
      if (skipped > 0) {
        notice.error(
          t('functional.editor.importSkipped', {
            count: skipped,
            file: file.name,
            problem: firstProblem ?? '',
          }),
        );
      }
      if (apis.length === 0) {
        if (skipped === 0)
          notice.error(t('functional.editor.parseFailed', { message: t('functional.editor.importEmpty') }));
        return;
      }
      editor.appendApis(apis);
      notice.success(t('functional.editor.imported', { count: apis.length, file: file.name }));
    } catch (error) {
      notice.error(t('functional.editor.parseFailed', { message: callErrorMessage(error, t) }));
    } finally {
      setImporting(false);
    }
  };

  return (
    <FilePickButton
      accept=".json,.yaml,.yml,application/json,application/yaml"
      onFile={(file) => void onFile(file)}
      inputTestId="import-apis-file"
      variant="outline"
      disabled={disabled || importing}
      title={t('functional.editor.importHint')}
      data-testid="import-apis"
    >
      {importing ? <Spinner /> : <FileUp />}
      {importing ? t('functional.editor.importing') : t('functional.editor.importApis')}
    </FilePickButton>
  );
}
