import { Plus } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { FunctionalActionBar } from '../../editor/components/FunctionalActionBar';
import { FunctionalEditorHead } from '../../editor/components/FunctionalEditorHead';
import { FunctionalListSection } from '../../editor/components/FunctionalListSection';
import { FunctionalSettingsCard, UI_NUMBER_FIELDS } from '../../editor/components/FunctionalSettingsCard';
import { useConfirmRemoveCall } from '../../editor/hooks/useConfirmRemoveCall';
import { newApiForm } from '../../editor/model/functional-form';
import { problemsByField } from '../../editor/model/plan-check';
import { useDragReorder } from '../hooks/useDragReorder';
import { useUiEditor } from '../hooks/useUiEditor';
import { ImportRecordingButton } from './ImportRecordingButton';
import { UiTestCard } from './UiTestCard';
import { useEditorAddress, useEditorKey } from '@/features/call-editor';

/**
 * /functional-test/ui-url-input (docs/reference/02-running.md §2 "UI tests"): the
 * configuration, the reorderable list of UI tests (with "Import recording"), how to bring a recorded test
 * here, and Cancel, Save/Update/Delete, Start UI Test. Each
 * visit gets a fresh editor; ?planId= (or the loadSavedPlanId hand-off) opens a saved UI plan.
 */
export default function UiFunctionalTestPage() {
  const editorKey = useEditorKey();
  return <UiEditorScreen key={editorKey} editorKey={editorKey} />;
}

function UiEditorScreen({ editorKey }: { editorKey: string }) {
  const t = useT();
  const { planIdParam, rememberPlanId } = useEditorAddress('functionalUi', editorKey);
  const editor = useUiEditor({ planIdParam, rememberPlanId });
  const { form, dispatch } = editor;
  const errors = problemsByField(editor.problems);
  const disabled = editor.loading || editor.loadError !== null;
  const drag = useDragReorder((from, to) => dispatch({ type: 'moveApi', from, to }));

  const removePage = useConfirmRemoveCall(dispatch, {
    unnamed: t('functional.ui.unnamedTest'),
    question: (number, name) => t('functional.ui.confirmRemove', { number, name }),
  });

  return (
    <div className="space-y-6 pb-4" data-testid="functional-ui-page">
      <FunctionalEditorHead
        title={t('functional.ui.title')}
        description={t('functional.ui.subtitle')}
        loadingLabel={t('functional.ui.loading')}
        editor={editor}
      />

      <div className={cn('space-y-6', editor.loading && 'pointer-events-none opacity-60')}>
        <FunctionalSettingsCard
          form={form}
          dispatch={dispatch}
          errors={errors.plan}
          disabled={disabled}
          numberFields={UI_NUMBER_FIELDS}
          text={t('functional.ui.configText')}
          testNamePlaceholder={t('functional.ui.testNamePlaceholder')}
        />

        <FunctionalListSection
          id="functional-ui-tests-title"
          title={t('functional.ui.testsTitle')}
          text={t('functional.ui.testsText')}
          count={form.apis.length}
          actions={
            <>
              <ImportRecordingButton form={form} dispatch={dispatch} disabled={disabled} />
              <Button
                onClick={() => dispatch({ type: 'addApi', api: newApiForm() })}
                disabled={disabled}
                data-testid="add-ui-test"
              >
                <Plus />
                {t('functional.ui.addTest')}
              </Button>
            </>
          }
          error={
            errors.plan.apis ? editor.problemText({ field: 'apis', message: errors.plan.apis }) : undefined
          }
          empty={{ title: t('functional.ui.noTests'), text: t('functional.ui.noTestsText') }}
          testIds={{
            section: 'ui-tests',
            count: 'ui-test-count',
            error: 'ui-tests-error',
            empty: 'ui-no-tests',
          }}
        >
          <ol className="space-y-4">
            {form.apis.map((page, index) => (
              <li key={page.entry.id} {...drag.targetProps(index)}>
                <UiTestCard
                  page={page}
                  index={index}
                  count={form.apis.length}
                  dispatch={dispatch}
                  errors={errors.apis[page.entry.id] ?? {}}
                  onRemove={removePage}
                  dragHandle={drag.handleProps(index)}
                  dragging={drag.dragging === index}
                  dropTarget={drag.over === index}
                  disabled={disabled}
                />
              </li>
            ))}
          </ol>
        </FunctionalListSection>

        <RecordingHelp />
      </div>

      <FunctionalActionBar
        editor={editor}
        disabled={disabled}
        empty={form.apis.length === 0}
        startLabel={t('functional.ui.start')}
        emptyHint={t('functional.ui.needsTest')}
      />
    </div>
  );
}

/**
 * How to record a test in each recorder and bring it here, and what runs (docs/recorded-ui-tests.md): one
 * line open, the rest folded; under the list, so the list keeps its place at the top.
 */
function RecordingHelp() {
  const t = useT();
  return (
    <Alert variant="info" title={t('functional.ui.helpTitle')} data-testid="ui-recording-help">
      <p>{t('functional.ui.helpIntro')}</p>
      <details className="mt-1" data-testid="ui-recording-help-more">
        <summary className="cursor-pointer font-medium">{t('functional.ui.helpMore')}</summary>
        <ul className="mt-1 list-disc space-y-1 pl-4">
          <li>{t('functional.ui.helpSelenium')}</li>
          <li>{t('functional.ui.helpChrome')}</li>
          <li>{t('functional.ui.helpPlaywright')}</li>
        </ul>
        <p className="mt-2">{t('functional.ui.helpSupported')}</p>
        <p className="mt-1">{t('functional.ui.helpNotSupported')}</p>
        <p className="mt-1">{t('functional.ui.helpEdit')}</p>
      </details>
    </Alert>
  );
}
