import { FunctionalPlanSchema, type FunctionalPlan, type FunctionalPlanInput } from '@aqa/plan';
import { useEffect, useMemo, useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useLeaveWarning } from '@/components/leave-warning';
import { useScreenNotices } from '@/components/notices';
import { SaveAbandoned, updateOrResolve, usePlanConflictChoice } from '@/components/plan-conflict';
import { callErrorMessage, handOffRun, LOAD_SAVED_PLAN_ID_KEY } from '@/features/plans';
import { useT, type MessageKey, type Translate } from '@/i18n';
import { isAbortError } from '@/lib/api';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { storage } from '@/lib/storage';
import {
  deleteFunctionalPlan,
  fetchFunctionalPlan,
  runFunctionalTest,
  saveFunctionalPlan,
  updateFunctionalPlan,
} from '../../queries/plan-api';

/**
 * The plan lifecycle both functional editor screens share (docs/reference/02-running.md §4 "Plan
 * lifecycle on functional screens", §3 "Browser storage", §8): load a saved plan (`?planId=` or the
 * `loadSavedPlanId` hand-off, read once), Save (new) or Update (saved) and Delete, and Start, which saves
 * an unsaved or changed plan first, runs it and opens its result with the run in browser storage. Each
 * screen brings its form and says how a plan becomes its form and its form the plan; the spec's alerts
 * are in-app notices, word for word, in the screen's own wording.
 */

export type Busy = 'loading' | 'saving' | 'updating' | 'deleting' | 'starting' | null;

/** The alerts that the screens word differently (docs/reference/02-running.md §8). */
export interface PlanMessages {
  loadFailed: MessageKey;
  saved: MessageKey;
  updated: MessageKey;
  saveFailed: MessageKey;
  updateFailed: MessageKey;
  saveBeforeRunFailed: MessageKey;
  startFailed: MessageKey;
}

export interface PlanProblem {
  field: string;
  message: string;
}

/** What one screen's plan is: its route, its form, and how that form and the plan turn into each other. */
export interface FunctionalPlanScreen<Form, Problem extends PlanProblem> {
  screen: ScreenId;
  newForm: () => Form;
  formOfPlan: (plan: FunctionalPlan) => Form;
  /** The plan the form sends and, judged by the model's schema, its problems in the screen's order. */
  check: (form: Form) => { ok: boolean; body: FunctionalPlanInput; problems: Problem[] };
  problemText: (problem: Problem, t: Translate) => string;
  messages: PlanMessages;
}

/** The saved id the screen opens with: the address's, else the one another screen handed over. */
function initialPlanId(planIdParam: string | null): string | null {
  return planIdParam?.trim() || storage.get(LOAD_SAVED_PLAN_ID_KEY)?.trim() || null;
}

/** What every functional editor hook is given of the screen's address (see useEditorAddress). */
export interface EditorAddressOptions {
  planIdParam: string | null;
  /** Writes a saved plan's id into the address (?planId=) without a new editor. */
  rememberPlanId: (id: string) => void;
}

interface PlanOptions<Form> extends EditorAddressOptions {
  form: Form;
  /** The screen's form reducer: a loaded plan (or, after Delete, a new one) replaces the form. */
  dispatch: Dispatch<{ type: 'load'; form: Form }>;
}

export function useFunctionalPlan<Form, Problem extends PlanProblem>(
  screen: FunctionalPlanScreen<Form, Problem>,
  { planIdParam, rememberPlanId, form, dispatch }: PlanOptions<Form>,
) {
  const t = useT();
  const notice = useScreenNotices();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const { messages } = screen;
  const [loadId] = useState(() => initialPlanId(planIdParam));
  const [savedId, setSavedId] = useState<string | null>(null);
  /** The saved plan's version the form was made from (docs/reference/01-authoring.md §7 "Plan versions"). */
  const [savedVersion, setSavedVersion] = useState<number | undefined>(undefined);
  const chooseOnConflict = usePlanConflictChoice();
  /** The body last saved or loaded, as sent: the form is dirty when its body differs. */
  const [savedBody, setSavedBody] = useState<string | null>(null);
  /** A new plan's body as the screen opened: nothing to lose until the form differs from it. */
  const [blankBody] = useState(() => JSON.stringify(screen.check(form).body));
  const [busy, setBusy] = useState<Busy>(loadId ? 'loading' : null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [showProblems, setShowProblems] = useState(false);

  // --- Loading a saved plan --------------------------------------------------------------------------

  useEffect(() => {
    // The hand-off is read once (docs/reference/02-running.md §3 "Browser storage").
    storage.remove(LOAD_SAVED_PLAN_ID_KEY);
    if (!loadId) return;
    const failed = (message: string) => {
      setBusy(null);
      setLoadError(message);
      notice.error(t(messages.loadFailed, { message }));
    };
    const controller = new AbortController();
    fetchFunctionalPlan(loadId, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        const parsed = FunctionalPlanSchema.safeParse(answer);
        if (!parsed.success) {
          failed(parsed.error.issues[0]?.message ?? '');
          return;
        }
        const id = parsed.data.id ?? loadId;
        applySaved(parsed.data, id);
        setBusy(null);
        if (planIdParam !== id) rememberPlanId(id);
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        failed(callErrorMessage(error, t));
      },
    );
    return () => controller.abort();
    // Loaded once per screen visit; the screen is remounted for every new visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadId]);

  /** A saved plan (loaded, or reloaded after a conflict) becomes the form. */
  function applySaved(plan: FunctionalPlan, id: string) {
    const next = screen.formOfPlan(plan);
    dispatch({ type: 'load', form: next });
    setSavedId(id);
    setSavedVersion(plan.version);
    setSavedBody(JSON.stringify(screen.check(next).body));
  }

  // --- Problems ---------------------------------------------------------------------------------------

  const check = useMemo(() => screen.check(form), [screen, form]);
  const body = useMemo(() => JSON.stringify(check.body), [check]);
  const dirty = savedBody !== body;
  // What the leave-page warning guards (docs/reference/01-authoring.md §4 "Unsaved changes"): edits of a
  // saved plan, or a new plan that is no longer blank — also changes James applied to it.
  const unsaved = busy !== 'loading' && loadError === null && body !== (savedBody ?? blankBody);
  const { allowNextNavigation } = useLeaveWarning(unsaved);
  const problems: Problem[] = showProblems ? check.problems : [];
  const problemText = (problem: Problem) => screen.problemText(problem, t);

  /** The rules of docs/reference/02-running.md §5, in the screen's order: the first problem is the alert. */
  const readyBody = () => {
    // A new attempt: what this screen said before is answered again, or is gone.
    notice.clearErrors();
    if (check.ok) return check.body;
    setShowProblems(true);
    const first = check.problems[0];
    if (first) notice.error(problemText(first));
    return null;
  };

  // --- Save, Update, Delete ---------------------------------------------------------------------------

  /** Update writes over the saved plan; Save writes a new one (and the screen then edits that). */
  const persist = async (sent: FunctionalPlanInput, mode: 'save' | 'update'): Promise<string> => {
    if (mode === 'update' && savedId) {
      // docs/reference/01-authoring.md §7 "Plan versions": a plan changed elsewhere since asks what to do.
      const answer = await updateOrResolve({
        version: savedVersion,
        update: (version) => updateFunctionalPlan(savedId, sent, version),
        choose: chooseOnConflict,
        fetchLatest: () => fetchFunctionalPlan(savedId),
        reload: (latest) => {
          const parsed = FunctionalPlanSchema.safeParse(latest);
          if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? '');
          applySaved(parsed.data, savedId);
          notice.success(t('conflict.reloaded'));
        },
      });
      setSavedBody(JSON.stringify(sent));
      setSavedVersion(answer.version);
      return savedId;
    }
    const answer = await saveFunctionalPlan(sent);
    const id = answer.id || answer.test_id;
    if (!id) throw new Error('The server did not return the id of the saved plan');
    setSavedId(id);
    setSavedVersion(answer.version);
    setSavedBody(JSON.stringify(sent));
    rememberPlanId(id);
    return id;
  };

  /** `mode` left out: Update for a saved plan, else Save. */
  const save = async (mode?: 'save' | 'update') => {
    if (busy) return;
    const sent = readyBody();
    if (!sent) return;
    const updating = (mode ?? 'update') === 'update' && savedId !== null;
    setBusy(updating ? 'updating' : 'saving');
    try {
      const id = await persist(sent, updating ? 'update' : 'save');
      notice.success(t(updating ? messages.updated : messages.saved, { id }));
    } catch (error) {
      if (error instanceof SaveAbandoned) return;
      const message = callErrorMessage(error, t);
      notice.error(t(updating ? messages.updateFailed : messages.saveFailed, { message }));
    } finally {
      setBusy(null);
    }
  };

  /** Delete, after the in-app confirmation; 'Deleted!' and 'Failed to delete: ...' are every screen's. */
  const remove = async () => {
    if (busy || !savedId) return;
    const question = {
      message: t('functional.editor.confirmDelete'),
      confirmLabel: t('functional.editor.confirmDeleteAction'),
      destructive: true,
    };
    if (!(await confirm(question))) return;
    notice.clearErrors();
    setBusy('deleting');
    try {
      await deleteFunctionalPlan(savedId);
      notice.success(t('functional.editor.deleted'));
      setBusy(null);
      // The plan is gone: there is nothing left to lose.
      allowNextNavigation();
      // The plan is gone: back to its list when that screen exists, else a new plan here.
      if (isScreenAvailable('functionalDashboard')) {
        void navigate(screenPath('functionalDashboard'));
      } else {
        dispatch({ type: 'load', form: screen.newForm() });
        setSavedId(null);
        setSavedBody(null);
        setShowProblems(false);
        void navigate(screenPath(screen.screen), { replace: true });
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
    const sent = readyBody();
    if (!sent) return;
    setBusy('starting');
    let planId: string;
    try {
      planId = savedId && !dirty ? savedId : await persist(sent, savedId ? 'update' : 'save');
    } catch (error) {
      setBusy(null);
      if (error instanceof SaveAbandoned) return;
      notice.error(t(messages.saveBeforeRunFailed, { message: callErrorMessage(error, t) }));
      return;
    }
    try {
      const request = { ...sent, plan_id: planId };
      const { test_id: testId } = await runFunctionalTest(request);
      if (!testId) throw new Error('The server did not return a test id');
      handOffRun(testId, { ...request });
      setBusy(null);
      allowNextNavigation();
      void navigate(screenPath('functionalResult', { testId }), { state: { testId, planId } });
    } catch (error) {
      notice.error(t(messages.startFailed, { message: callErrorMessage(error, t) }));
      setBusy(null);
    }
  };

  return {
    screen,
    savedId,
    savedVersion,
    savedBody,
    dirty,
    unsaved,
    busy,
    loading: busy === 'loading',
    loadError,
    problems,
    problemText,
    save,
    remove,
    start,
  };
}
