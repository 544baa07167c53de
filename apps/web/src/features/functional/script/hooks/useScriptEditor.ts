import { FUNCTIONAL_PLAN_ERRORS, FunctionalPlanSchema } from '@aqa/plan';
import { useDeferredValue, useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { useNotice } from '@/components/notices';
import { callErrorMessage, handOffRun, LOAD_SAVED_PLAN_ID_KEY } from '@/features/plans';
import { useT, type Translate } from '@/i18n';
import { isAbortError } from '@/lib/api';
import { screenPath } from '@/lib/screens';
import { storage } from '@/lib/storage';
import {
  fetchFunctionalPlan,
  runFunctionalTest,
  saveFunctionalPlan,
  updateFunctionalPlan,
} from '../../queries/plan-api';
import { translateFunctionalMessage } from '../../editor/model/messages';
import {
  checkScriptForm,
  newScriptForm,
  scriptFormOfPlan,
  scriptFormReducer,
  type ScriptProblem,
} from '../model/script-form';
import { readScript } from '../model/script-read';

/**
 * Everything the script screen does with its plan (docs/reference/02-running.md §2 "Functional Script
 * Input screen", §4 "Plan lifecycle", §5, §8): load a saved plan (?planId= or the loadSavedPlanId
 * hand-off), Save (new) or Update (saved), and Start, which saves an unsaved plan first. The alerts are
 * in-app notices, word for word.
 */

export type ScriptBusy = 'loading' | 'saving' | 'updating' | 'starting' | null;

export function scriptProblemText(problem: ScriptProblem, t: Translate): string {
  return problem.message === FUNCTIONAL_PLAN_ERRORS.scriptRequired
    ? t('functional.script.scriptRequired')
    : translateFunctionalMessage(problem.message, t);
}

export function useScriptEditor({
  planIdParam,
  rememberPlanId,
}: {
  planIdParam: string | null;
  rememberPlanId: (id: string) => void;
}) {
  const t = useT();
  const notice = useNotice();
  const navigate = useNavigate();
  const [loadId] = useState(() => planIdParam?.trim() || storage.get(LOAD_SAVED_PLAN_ID_KEY)?.trim() || null);
  const [form, dispatch] = useReducer(scriptFormReducer, undefined, newScriptForm);
  const [savedId, setSavedId] = useState<string | null>(null);
  const [savedBody, setSavedBody] = useState<string | null>(null);
  const [busy, setBusy] = useState<ScriptBusy>(loadId ? 'loading' : null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [showProblems, setShowProblems] = useState(false);

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
          notice.error(t('functional.script.loadFailed', { message: first }));
          return;
        }
        const id = parsed.data.id ?? loadId;
        const next = scriptFormOfPlan(parsed.data);
        dispatch({ type: 'load', form: next });
        setSavedId(id);
        setSavedBody(JSON.stringify(checkScriptForm(next).body));
        setBusy(null);
        if (planIdParam !== id) rememberPlanId(id);
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const message = callErrorMessage(error, t);
        setBusy(null);
        setLoadError(message);
        notice.error(t('functional.script.loadFailed', { message }));
      },
    );
    return () => controller.abort();
    // Loaded once per screen visit; the screen is remounted for every new visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadId]);

  // The script read as it is typed; deferred so typing stays quick on a long script.
  const deferredScript = useDeferredValue(form.script);
  const read = useMemo(() => readScript(deferredScript, form.dataFiles), [deferredScript, form.dataFiles]);

  const check = useMemo(() => checkScriptForm(form), [form]);
  const dirty = savedBody !== JSON.stringify(check.body);
  const problems = showProblems ? check.problems : [];

  const readyBody = () => {
    if (check.ok) return check.body;
    setShowProblems(true);
    const first = check.problems[0];
    if (first) notice.error(scriptProblemText(first, t));
    return null;
  };

  /** Save Test Plan writes a new plan; Update Test Plan (a saved plan) writes over it. */
  const persist = async (body: typeof check.body, mode: 'save' | 'update'): Promise<string> => {
    if (mode === 'update' && savedId) {
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

  const save = async (mode: 'save' | 'update') => {
    if (busy) return;
    const body = readyBody();
    if (!body) return;
    const updating = mode === 'update' && savedId !== null;
    setBusy(updating ? 'updating' : 'saving');
    try {
      await persist(body, updating ? 'update' : 'save');
      notice.success(t(updating ? 'functional.script.updated' : 'functional.script.saved'));
    } catch (error) {
      const message = callErrorMessage(error, t);
      notice.error(
        t(updating ? 'functional.script.updateFailed' : 'functional.script.saveFailed', { message }),
      );
    } finally {
      setBusy(null);
    }
  };

  /** docs/reference/02-running.md §4: an unsaved (or changed) plan is saved first, then run-test. */
  const start = async () => {
    if (busy) return;
    const body = readyBody();
    if (!body) return;
    setBusy('starting');
    let planId: string;
    try {
      planId = savedId && !dirty ? savedId : await persist(body, savedId ? 'update' : 'save');
    } catch {
      notice.error(t('functional.script.saveBeforeRunFailed'));
      setBusy(null);
      return;
    }
    try {
      const request = { ...body, plan_id: planId, test_type: 'functional' } as const;
      const { test_id: testId } = await runFunctionalTest(request);
      if (!testId) throw new Error('The server did not return a test id');
      handOffRun(testId, { ...request });
      setBusy(null);
      void navigate(screenPath('functionalResult', { testId }), { state: { testId, planId } });
    } catch (error) {
      notice.error(t('functional.script.startFailed', { message: callErrorMessage(error, t) }));
      setBusy(null);
    }
  };

  return {
    form,
    dispatch,
    read,
    savedId,
    dirty,
    busy,
    loading: busy === 'loading',
    loadError,
    problems,
    save,
    start,
  };
}

export type ScriptEditor = ReturnType<typeof useScriptEditor>;
