import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { useT, type MessageKey } from '@/i18n';
import { screenPath, type ScreenId } from '@/lib/screens';
import type { PlanProblem } from '../hooks/useFunctionalPlan';
import { PlanLoadErrorAlert, PlanLoadingAlert, PlanStateBadge } from '@/features/call-editor';

/**
 * The top of both functional editor screens (docs/reference/02-running.md §2): the title with the plan's
 * saved or new state, the saved plan loading or why it could not be loaded (with a new plan on the same
 * screen), and, once Save or Start was pressed, the plan's problems in order.
 */
export function FunctionalEditorHead<Problem extends PlanProblem>({
  title,
  description,
  loadingLabel,
  editor,
}: {
  title: string;
  description: string;
  /** 'Loading test configuration...' unless the screen words it otherwise. */
  loadingLabel?: string;
  editor: {
    /** The screen's route and its 'Failed to load ...: {message}'. */
    screen: { screen: ScreenId; messages: { loadFailed: MessageKey } };
    savedId: string | null;
    loading: boolean;
    loadError: string | null;
    problems: readonly Problem[];
    problemText: (problem: Problem) => string;
  };
}) {
  const t = useT();
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          <PlanStateBadge
            saved={editor.savedId !== null}
            label={editor.savedId ? t('functional.editor.savedPlan') : t('functional.editor.newPlan')}
            testId="functional-plan-state"
          />
        }
      />

      {editor.loading && (
        <PlanLoadingAlert
          label={loadingLabel ?? t('functional.editor.loading')}
          testId="functional-plan-loading"
        />
      )}
      {editor.loadError !== null && (
        <PlanLoadErrorAlert
          message={t(editor.screen.messages.loadFailed, { message: editor.loadError })}
          startNew={{ to: screenPath(editor.screen.screen), label: t('functional.editor.startNew') }}
          testId="functional-plan-load-error"
          linkTestId="functional-plan-start-new"
        />
      )}
      {editor.problems.length > 0 && (
        <Alert
          variant="destructive"
          title={t('functional.editor.problemsTitle')}
          data-testid="functional-problems"
        >
          <ul className="list-disc space-y-0.5 pl-5">
            {editor.problems.map((problem) => (
              <li key={`${problem.field}-${problem.message}`}>{editor.problemText(problem)}</li>
            ))}
          </ul>
        </Alert>
      )}
    </>
  );
}
