import { FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { useConfirmRemoveCall } from '../hooks/useConfirmRemoveCall';
import { useFunctionalEditor, type FunctionalEditor } from '../hooks/useFunctionalEditor';
import { newApiForm } from '../model/functional-form';
import { importApisFromFile } from '../model/import-file';
import { problemsByField } from '../model/plan-check';
import { CliDownloadButton } from './CliDownload';
import { FilePickButton } from '@/components/file-pick-button';
import { FunctionalActionBar } from './FunctionalActionBar';
import { CollectionCard } from './CollectionCard';
import { FunctionalApiCard } from './FunctionalApiCard';
import { FunctionalEditorHead } from './FunctionalEditorHead';
import { FunctionalListSection } from './FunctionalListSection';
import { FunctionalSettingsCard } from './FunctionalSettingsCard';
import { callErrorMessage, useEditorAddress, useEditorKey } from '@/features/call-editor';

/**
 * /functional-test/url-input (docs/reference/02-running.md §2 "Functional URL Input screen"). Each visit
 * gets a fresh editor; writing ?planId= into the address after a save keeps it.
 */
export default function FunctionalUrlInputPage() {
  const editorKey = useEditorKey();
  return <FunctionalUrlEditor key={editorKey} editorKey={editorKey} />;
}

function FunctionalUrlEditor({ editorKey }: { editorKey: string }) {
  const t = useT();
  const { planIdParam, rememberPlanId } = useEditorAddress('functionalUrl', editorKey);
  const editor = useFunctionalEditor({ planIdParam, rememberPlanId });
  const { form, dispatch } = editor;
  const errors = problemsByField(editor.problems);
  const disabled = editor.loading || editor.loadError !== null;

  const removeApi = useConfirmRemoveCall(dispatch, {
    unnamed: t('functional.editor.unnamedApi'),
    question: (number, name) => t('functional.editor.confirmRemove', { number, name }),
  });

  return (
    <div className="space-y-6 pb-4" data-testid="functional-url-input-page">
      <FunctionalEditorHead
        title={t('functional.editor.title')}
        description={t('functional.editor.subtitle')}
        editor={editor}
      />

      <div className={cn('space-y-6', editor.loading && 'pointer-events-none opacity-60')}>
        <FunctionalSettingsCard form={form} dispatch={dispatch} errors={errors.plan} disabled={disabled} />
        <CollectionCard
          collection={form.collection}
          dispatch={dispatch}
          errors={errors.plan}
          disabled={disabled}
        />

        <FunctionalListSection
          id="functional-apis-title"
          title={t('functional.editor.apisTitle')}
          text={t('functional.editor.apisText')}
          count={form.apis.length}
          actions={
            <>
              <ImportApisButton editor={editor} disabled={disabled} />
              <Button
                onClick={() => dispatch({ type: 'addApi', api: newApiForm() })}
                disabled={disabled}
                data-testid="add-api"
              >
                <Plus />
                {t('functional.editor.addApi')}
              </Button>
            </>
          }
          error={
            errors.plan.apis ? editor.problemText({ field: 'apis', message: errors.plan.apis }) : undefined
          }
          empty={{ title: t('functional.editor.noApis'), text: t('functional.editor.noApisText') }}
          testIds={{
            section: 'functional-apis',
            count: 'functional-api-count',
            error: 'apis-error',
            empty: 'functional-no-apis',
          }}
        >
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
        </FunctionalListSection>
      </div>

      <FunctionalActionBar
        editor={editor}
        disabled={disabled}
        empty={form.apis.length === 0}
        startLabel={t('functional.editor.start')}
        emptyHint={t('functional.editor.needsApi')}
        extra={
          <CliDownloadButton
            plan={editor.savedPlan}
            dirty={editor.dirty}
            disabled={disabled || editor.busy !== null}
            className="max-sm:order-last max-sm:col-span-3"
          />
        }
      />
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
