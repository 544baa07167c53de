import { FileUp, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { cn } from '@/lib/utils';
import { useConfirmRemoveCall } from '../hooks/useConfirmRemoveCall';
import { useFunctionalEditor, type FunctionalEditor } from '../hooks/useFunctionalEditor';
import { newApiForm } from '../model/functional-form';
import { mergedCollection } from '../model/collection-form';
import {
  collectionFilesAlone,
  importApisFromFile,
  readCollectionFiles,
  sortPickedFiles,
} from '../model/import-file';
import { problemsByField } from '../model/plan-check';
import { CliDownloadButton } from './CliDownload';
import { FunctionalActionBar } from './FunctionalActionBar';
import { CollectionCard } from './CollectionCard';
import { FunctionalApiCard } from './FunctionalApiCard';
import { FunctionalEditorHead } from './FunctionalEditorHead';
import { FunctionalListSection } from './FunctionalListSection';
import { FunctionalSettingsCard } from './FunctionalSettingsCard';
import { PostmanImportSummary, postmanCountsLine, type PostmanTestCounts } from './PostmanImportSummary';
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
  // The last imported collection's test counts, on the screen until the next import.
  const [imported, setImported] = useState<{ file: string; counts: PostmanTestCounts } | null>(null);
  const planTestScripts = form.collection.scripts.test.length > 0;
  const noDefaultRule = form.collection.defaultStatusRule === false;

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
              <ImportApisButton editor={editor} disabled={disabled} onImported={setImported} />
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
          {imported && <PostmanImportSummary file={imported.file} counts={imported.counts} />}
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
                  planTestScripts={planTestScripts}
                  noDefaultRule={noDefaultRule}
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

/**
 * "Import APIs from file": an OpenAPI / Swagger document or a Postman collection, its APIs appended. A
 * collection may be picked together with its environment and data file (docs/adr/0029-postman-collections.md):
 * its variables, scripts, data file and options join the plan, and the notice says how its tests came over.
 */
function ImportApisButton({
  editor,
  disabled,
  onImported,
}: {
  editor: FunctionalEditor;
  disabled: boolean;
  /** A collection's test counts, or null for a file with none (an OpenAPI document). */
  onImported: (imported: { file: string; counts: PostmanTestCounts } | null) => void;
}) {
  const t = useT();
  const { readOnly } = useWorkspace();
  const notice = useNotice();
  const [importing, setImporting] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const onFiles = async (files: File[]) => {
    setImporting(true);
    try {
      // An environment or data file picked after its collection: it joins the plan's collection.
      const alone = editor.form.apis.length > 0 ? await collectionFilesAlone(files) : null;
      if (alone !== null) {
        const read = await readCollectionFiles(alone);
        editor.dispatch({
          type: 'setCollection',
          collection: mergedCollection(editor.form.collection, read.collection),
        });
        if (read.iterations !== undefined)
          editor.dispatch({ type: 'setSetting', field: 'iterations', value: String(read.iterations) });
        notice.success(t('functional.postman.filesAttached', { files: files.map((f) => f.name).join(', ') }));
        return;
      }
      const picked = await sortPickedFiles(files);
      if ('problem' in picked) {
        notice.error(t('functional.editor.parseFailed', { message: picked.problem }));
        return;
      }
      const { apis, skipped, firstProblem, collection, iterations, tests, testName, thinkTime } =
        await importApisFromFile(picked);
      // A collection imported into an empty plan runs as Newman does, with no pause between calls.
      const fresh = editor.form.apis.length === 0;
      if (skipped > 0) {
        notice.error(
          t('functional.editor.importSkipped', {
            count: skipped,
            file: picked.file.name,
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
      if (fresh && thinkTime !== undefined)
        editor.dispatch({ type: 'setSetting', field: 'thinkTime', value: String(thinkTime) });
      if (collection !== undefined)
        editor.dispatch({
          type: 'setCollection',
          collection: mergedCollection(editor.form.collection, collection),
        });
      if (testName && editor.form.testName.trim() === '')
        editor.dispatch({ type: 'setSetting', field: 'testName', value: testName });
      if (iterations !== undefined)
        editor.dispatch({ type: 'setSetting', field: 'iterations', value: String(iterations) });
      const added = t('functional.editor.imported', { count: apis.length, file: picked.file.name });
      onImported(tests === undefined ? null : { file: picked.file.name, counts: tests });
      notice.success(tests === undefined ? added : `${added}. ${postmanCountsLine(t, tests)}`);
      if (tests !== undefined && tests.leftOut.length > 0)
        notice.error(
          t('functional.postman.leftOut', {
            list: tests.leftOut
              .slice(0, 5)
              .map((l) =>
                t('functional.postman.leftOutItem', { request: l.request, line: l.line, reason: l.reason }),
              )
              .join('; '),
          }),
        );
    } catch (error) {
      notice.error(t('functional.editor.parseFailed', { message: callErrorMessage(error, t) }));
    } finally {
      setImporting(false);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        accept=".json,.yaml,.yml,.csv,application/json,application/yaml,text/csv"
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) void onFiles(files);
        }}
        data-testid="import-apis-file"
      />
      <Button
        variant="outline"
        // Reading a file is an editor's call (POST /api/functional/parse-file): a viewer is told why not.
        disabled={disabled || importing || readOnly}
        title={readOnly ? t('workspace.viewerReason') : t('functional.editor.importHint')}
        onClick={() => input.current?.click()}
        data-testid="import-apis"
      >
        {importing ? <Spinner /> : <FileUp />}
        {importing ? t('functional.editor.importing') : t('functional.editor.importApis')}
      </Button>
    </>
  );
}
