import { FUNCTIONAL_PLAN_ERRORS } from '@aqa/plan';
import { useDeferredValue, useMemo, useReducer } from 'react';
import type { Translate } from '@/i18n';
import { useFunctionalPlan, type FunctionalPlanScreen } from '../../editor/hooks/useFunctionalPlan';
import { translateFunctionalMessage } from '../../editor/model/messages';
import {
  checkScriptForm,
  newScriptForm,
  scriptFormOfPlan,
  scriptFormReducer,
  type ScriptForm,
  type ScriptProblem,
} from '../model/script-form';
import { readScript } from '../model/script-read';

/**
 * Everything the script screen does with its plan (docs/reference/02-running.md §2 "Functional Script
 * Input screen", §4 "Plan lifecycle", §5, §8): the script form, the script as the Taurus reader reads it,
 * and the lifecycle both functional editors share (useFunctionalPlan: load, Save or Update, Start), with
 * this screen's alerts.
 */

function scriptProblemText(problem: ScriptProblem, t: Translate): string {
  return problem.message === FUNCTIONAL_PLAN_ERRORS.scriptRequired
    ? t('functional.script.scriptRequired')
    : translateFunctionalMessage(problem.message, t);
}

const SCRIPT_SCREEN: FunctionalPlanScreen<ScriptForm, ScriptProblem> = {
  screen: 'functionalScript',
  newForm: newScriptForm,
  formOfPlan: scriptFormOfPlan,
  check: checkScriptForm,
  problemText: scriptProblemText,
  messages: {
    loadFailed: 'functional.script.loadFailed',
    saved: 'functional.script.saved',
    updated: 'functional.script.updated',
    saveFailed: 'functional.script.saveFailed',
    updateFailed: 'functional.script.updateFailed',
    saveBeforeRunFailed: 'functional.script.saveBeforeRunFailed',
    startFailed: 'functional.script.startFailed',
  },
};

export function useScriptEditor({
  planIdParam,
  rememberPlanId,
}: {
  planIdParam: string | null;
  rememberPlanId: (id: string) => void;
}) {
  const [form, dispatch] = useReducer(scriptFormReducer, undefined, newScriptForm);
  const plan = useFunctionalPlan(SCRIPT_SCREEN, { planIdParam, rememberPlanId, form, dispatch });

  // The script read as it is typed; deferred so typing stays quick on a long script.
  const deferredScript = useDeferredValue(form.script);
  const read = useMemo(() => readScript(deferredScript, form.dataFiles), [deferredScript, form.dataFiles]);

  return { ...plan, form, dispatch, read };
}

export type ScriptEditor = ReturnType<typeof useScriptEditor>;
