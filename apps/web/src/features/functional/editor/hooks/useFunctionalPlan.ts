import { FunctionalPlanSchema, type FunctionalPlan, type FunctionalPlanInput } from '@aqa/plan';
import { useEffect, useMemo, useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router';
import { useScreenNotices } from '@/components/notices';
import { useT, type MessageKey, type Translate } from '@/i18n';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { storage } from '@/lib/storage';
import {
  deleteFunctionalPlan,
  fetchFunctionalPlan,
  functionalPlanKey,
  runFunctionalTest,
  saveFunctionalPlan,
  updateFunctionalPlan,
  type SavedFunctionalPlan,
} from '../../queries/plan-api';
import {
  callErrorMessage,
  LOAD_SAVED_PLAN_ID_KEY,
  usePlanLifecycle,
  type LifecycleBusy,
  type PlanStore,
  type ReadPlan,
} from '@/features/call-editor';

/**
 * The functional editor screens' plan (docs/reference/02-running.md §4 "Plan lifecycle on functional
 * screens", §3 "Browser storage", §8) on the lifecycle every plan editor shares (usePlanLifecycle of
 * @/features/call-editor): load a saved plan (`?planId=` or the `loadSavedPlanId` hand-off, read once),
 * Save (new) or Update (saved) and Delete, and Start, which saves an unsaved or changed plan first, runs
 * it and opens its result with the run in browser storage. Each screen brings its form and says how a
 * plan becomes its form and its form the plan; the spec's alerts are in-app notices, word for word, in
 * the screen's own wording.
 */

/** The busy states of the functional screens' own actions; loading and deleting are the lifecycle's. */
type ActionBusy = 'saving' | 'updating' | 'starting';
export type Busy = ActionBusy | LifecycleBusy | null;

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

/** Where functional plans are stored (docs/reference/02-running.md §4). */
const FUNCTIONAL_STORE: PlanStore<FunctionalPlanInput, SavedFunctionalPlan> = {
  key: functionalPlanKey,
  fetch: fetchFunctionalPlan,
  create: async (body) => {
    const answer = await saveFunctionalPlan(body);
    return { id: answer.id || answer.test_id, version: answer.version };
  },
  update: async (id, body, version) => {
    const answer = await updateFunctionalPlan(id, body, version);
    return { id: undefined, version: answer.version };
  },
  remove: deleteFunctionalPlan,
};

/** A stored plan as the model reads it (the answer is the server's, not yet checked). */
function readFunctionalPlan(stored: SavedFunctionalPlan): ReadPlan<FunctionalPlan> {
  const parsed = FunctionalPlanSchema.safeParse(stored);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? '' };
  return { plan: parsed.data, id: parsed.data.id, version: parsed.data.version };
}

export function useFunctionalPlan<Form, Problem extends PlanProblem>(
  screen: FunctionalPlanScreen<Form, Problem>,
  { planIdParam, rememberPlanId, form, dispatch }: PlanOptions<Form>,
) {
  const t = useT();
  const notice = useScreenNotices();
  const navigate = useNavigate();
  const { messages } = screen;
  const check = useMemo(() => screen.check(form), [screen, form]);
  /** The body as sent: the form is dirty while it differs from the one last saved or loaded. */
  const body = useMemo(() => JSON.stringify(check.body), [check]);
  const opening = () => ({
    loadId: initialPlanId(planIdParam),
    saved: null,
    blankFingerprint: body,
    loadError: null,
  });
  const plan = usePlanLifecycle<FunctionalPlanInput, SavedFunctionalPlan, FunctionalPlan, ActionBusy>({
    store: FUNCTIONAL_STORE,
    read: readFunctionalPlan,
    apply: (saved) => {
      const next = screen.formOfPlan(saved);
      dispatch({ type: 'load', form: next });
      return JSON.stringify(screen.check(next).body);
    },
    fingerprint: body,
    opening,
    planIdParam,
    rememberPlanId,
    loadFailedText: (message) => t(messages.loadFailed, { message }),
  });
  const { busy, savedId } = plan;
  const [showProblems, setShowProblems] = useState(false);

  // The hand-off is read once (docs/reference/02-running.md §3 "Browser storage").
  useEffect(() => storage.remove(LOAD_SAVED_PLAN_ID_KEY), []);

  // --- Problems ---------------------------------------------------------------------------------------

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

  /** `mode` left out: Update for a saved plan, else Save (a new plan, which the screen then edits). */
  const save = async (mode?: 'save' | 'update') => {
    if (busy) return;
    const sent = readyBody();
    if (!sent) return;
    const updating = (mode ?? 'update') === 'update' && savedId !== null;
    await plan.act(
      updating ? 'updating' : 'saving',
      async () => {
        const id = await plan.persist(sent, updating ? 'update' : 'create');
        notice.success(t(updating ? messages.updated : messages.saved, { id }));
      },
      (error) => {
        const message = callErrorMessage(error, t);
        notice.error(t(updating ? messages.updateFailed : messages.saveFailed, { message }));
      },
    );
  };

  /** Delete, after the in-app confirmation; 'Deleted!' and 'Failed to delete: ...' are every screen's. */
  const remove = () =>
    plan.remove({
      question: {
        message: t('functional.editor.confirmDelete'),
        confirmLabel: t('functional.editor.confirmDeleteAction'),
        destructive: true,
      },
      deleted: t('functional.editor.deleted'),
      failed: (message) => t('functional.editor.deleteFailed', { message }),
      gone: () => {
        // The plan is gone: back to its list when that screen exists, else a new plan here.
        if (isScreenAvailable('functionalDashboard')) {
          void navigate(screenPath('functionalDashboard'));
          return;
        }
        dispatch({ type: 'load', form: screen.newForm() });
        plan.forgetSaved();
        setShowProblems(false);
        void navigate(screenPath(screen.screen), { replace: true });
      },
    });

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
    let saved = false;
    await plan.act(
      'starting',
      async () => {
        const planId = await plan.ensureSaved(sent);
        saved = true;
        const request = { ...sent, plan_id: planId };
        const { test_id: testId } = await runFunctionalTest(request);
        if (!testId) throw new Error('The server did not return a test id');
        plan.openRun('functionalResult', testId, request, planId);
      },
      (error) => {
        const failure = saved ? messages.startFailed : messages.saveBeforeRunFailed;
        notice.error(t(failure, { message: callErrorMessage(error, t) }));
      },
    );
  };

  return {
    screen,
    savedId,
    savedBody: plan.savedFingerprint,
    dirty: plan.dirty,
    unsaved: plan.unsaved,
    busy,
    loading: plan.loading,
    loadError: plan.loadError,
    problems,
    problemText,
    save,
    remove,
    start,
  };
}
