import { FunctionalPlanSchema } from '@aqa/plan';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { callErrorMessage, handOffRun, LOAD_SAVED_PLAN_ID_KEY } from '@/features/plans';
import { useT } from '@/i18n';
import { isAbortError } from '@/lib/api';
import { isScreenAvailable, screenPath } from '@/lib/screens';
import { storage } from '@/lib/storage';
import {
  deleteFunctionalPlan,
  fetchFunctionalPlan,
  runFunctionalTest,
  saveFunctionalPlan,
  updateFunctionalPlan,
} from '../../queries/plan-api';
import {
  formOfPlan,
  functionalFormReducer,
  newFunctionalForm,
  type FunctionalApiForm,
} from '../model/functional-form';
import { savedCliPlan } from '../model/cli-plan';
import { translateFunctionalMessage } from '../model/messages';
import { checkFunctionalForm, type Problem } from '../model/plan-check';

/**
 * Everything the functional URL input screen does with its plan (docs/reference/02-running.md §2, §4 "Plan
 * lifecycle", §8): load a saved plan (`?planId=` or the `loadSavedPlanId` hand-off of §3 "Browser
 * storage"), Save (new) or Update and Delete (saved), and Start, which saves an unsaved plan first. The
 * spec's alerts are in-app notices, word for word; Delete asks with the in-app confirmation.
 */

export type Busy = 'loading' | 'saving' | 'updating' | 'deleting' | 'starting' | null;

/** The saved id the screen opens with: the address's, else the one another screen handed over. */
function initialPlanId(planIdParam: string | null): string | null {
  if (planIdParam?.trim()) return planIdParam.trim();
  return storage.get(LOAD_SAVED_PLAN_ID_KEY)?.trim() || null;
}

interface EditorOptions {
  planIdParam: string | null;
  /** Writes a saved plan's id into the address (?planId=) without a new editor. */
  rememberPlanId: (id: string) => void;
}

export function useFunctionalEditor({ planIdParam, rememberPlanId }: EditorOptions) {
  const t = useT();
  const notice = useNotice();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [loadId] = useState(() => initialPlanId(planIdParam));
  const [form, dispatch] = useReducer(functionalFormReducer, undefined, newFunctionalForm);
  const [savedId, setSavedId] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(loadId ? 'loading' : null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [savedBody, setSavedBody] = useState<string | null>(null);

  // --- Loading a saved plan --------------------------------------------------------------------------

  useEffect(() => {
    // The hand-off is read once (docs/reference/02-running.md §3 "Browser storage").
    storage.remove(LOAD_SAVED_PLAN_ID_KEY);
    if (!loadId) return;
    const controller = new AbortController();
    fetchFunctionalPlan(loadId, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        const parsed = FunctionalPlanSchema.safeParse(answer);
        if (!parsed.success) {
          const first = parsed.error.issues[0]?.message ?? '';
          setBusy(null);
          setLoadError(first);
          notice.error(t('functional.editor.loadFailed', { message: first }));
          return;
        }
        const id = parsed.data.id ?? loadId;
        const next = formOfPlan(parsed.data);
        dispatch({ type: 'load', form: next });
        setSavedId(id);
        setSavedBody(JSON.stringify(checkFunctionalForm(next).body));
        setBusy(null);
        if (planIdParam !== id) rememberPlanId(id);
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const message = callErrorMessage(error, t);
        setBusy(null);
        setLoadError(message);
        notice.error(t('functional.editor.loadFailed', { message }));
      },
    );
    return () => controller.abort();
    // Loaded once per screen visit; the screen is remounted for every new visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadId]);

  // --- Problems ---------------------------------------------------------------------------------------

  const check = useMemo(() => checkFunctionalForm(form), [form]);
  const problems: Problem[] = showProblems ? check.problems : [];
  const dirty = savedBody !== JSON.stringify(check.body);
  // What "Download for aqa test" writes: the plan last saved, as the model reads it.
  const savedPlan = useMemo(() => savedCliPlan(savedBody, savedId), [savedBody, savedId]);

  const problemText = (problem: Problem): string => {
    const message = translateFunctionalMessage(problem.message, t);
    // The reference's own API messages name their API already ("API #2 URL is required").
    return problem.apiNumber === undefined || message.includes(`#${problem.apiNumber}`)
      ? message
      : t('functional.editor.problemAt', { number: problem.apiNumber, message });
  };

  /** The rules of docs/reference/02-running.md §5, in list order: the first problem is the alert. */
  const readyBody = () => {
    if (check.ok) return check.body;
    setShowProblems(true);
    const first = check.problems[0];
    if (first) notice.error(problemText(first));
    return null;
  };

  // --- Save, Update, Delete ---------------------------------------------------------------------------

  const persist = async (body: typeof check.body): Promise<string> => {
    if (savedId) {
      await updateFunctionalPlan(savedId, body);
      setSavedBody(JSON.stringify(body));
      return savedId;
    }
    const answer = await saveFunctionalPlan(body);
    const id = answer.id || answer.test_id;
    if (!id) throw new Error('The server did not return the id of the saved plan');
    setSavedId(id);
    setSavedBody(JSON.stringify(body));
    rememberPlanId(id);
    return id;
  };

  const save = async () => {
    if (busy) return;
    const body = readyBody();
    if (!body) return;
    const updating = savedId !== null;
    setBusy(updating ? 'updating' : 'saving');
    try {
      const id = await persist(body);
      notice.success(t(updating ? 'functional.editor.updated' : 'functional.editor.saved', { id }));
    } catch (error) {
      const message = callErrorMessage(error, t);
      notice.error(
        t(updating ? 'functional.editor.updateFailed' : 'functional.editor.saveFailed', { message }),
      );
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (busy || !savedId) return;
    const question = {
      message: t('functional.editor.confirmDelete'),
      confirmLabel: t('functional.editor.confirmDeleteAction'),
      destructive: true,
    };
    if (!(await confirm(question))) return;
    setBusy('deleting');
    try {
      await deleteFunctionalPlan(savedId);
      notice.success(t('functional.editor.deleted'));
      setBusy(null);
      // The plan is gone: back to its list when that screen exists, else a new plan here.
      if (isScreenAvailable('functionalDashboard')) {
        void navigate(screenPath('functionalDashboard'));
      } else {
        dispatch({ type: 'load', form: newFunctionalForm() });
        setSavedId(null);
        setSavedBody(null);
        setShowProblems(false);
        void navigate(screenPath('functionalUrl'), { replace: true });
      }
    } catch (error) {
      notice.error(t('functional.editor.deleteFailed', { message: callErrorMessage(error, t) }));
      setBusy(null);
    }
  };

  // --- Start ------------------------------------------------------------------------------------------

  /**
   * docs/reference/02-running.md §4: a run needs a plan id, so an unsaved plan is saved first (and a
   * changed one updated, so the run is the plan on screen); then run-test with the plan and its id, and
   * the result screen with the run in browser storage (§3 currentTestId, currentTestConfig).
   */
  const start = async () => {
    if (busy) return;
    const body = readyBody();
    if (!body) return;
    setBusy('starting');
    let planId: string;
    try {
      planId = savedId && !dirty ? savedId : await persist(body);
    } catch (error) {
      notice.error(t('functional.editor.saveBeforeRunFailed', { message: callErrorMessage(error, t) }));
      setBusy(null);
      return;
    }
    try {
      const request = {
        ...body,
        plan_id: planId,
        source: 'url_input',
        test_framework: 'taurus',
        test_type: 'functional',
      } as const;
      const { test_id: testId } = await runFunctionalTest(request);
      if (!testId) throw new Error('The server did not return a test id');
      handOffRun(testId, { ...request });
      setBusy(null);
      void navigate(screenPath('functionalResult', { testId }), { state: { testId, planId } });
    } catch (error) {
      notice.error(t('functional.editor.startFailed', { message: callErrorMessage(error, t) }));
      setBusy(null);
    }
  };

  const appendApis = (apis: FunctionalApiForm[]) => {
    if (apis.length > 0) dispatch({ type: 'appendApis', apis });
  };

  return {
    form,
    dispatch,
    savedId,
    savedPlan,
    dirty,
    busy,
    loading: busy === 'loading',
    loadError,
    problems,
    problemText,
    save,
    remove,
    start,
    appendApis,
  };
}

export type FunctionalEditor = ReturnType<typeof useFunctionalEditor>;
