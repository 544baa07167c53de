import { FUNCTIONAL_PLAN_ERRORS } from '@aqa/plan';
import { useReducer } from 'react';
import type { Translate } from '@/i18n';
import {
  useFunctionalPlan,
  type EditorAddressOptions,
  type FunctionalPlanScreen,
} from '../../editor/hooks/useFunctionalPlan';
import { translateFunctionalMessage } from '../../editor/model/messages';
import {
  checkScriptForm,
  newScriptForm,
  scriptFormOfPlan,
  scriptFormReducer,
  type ScriptForm,
  type ScriptProblem,
} from '../model/script-form';
import { useScriptReading } from './useScriptReading';

/**
 * Everything the script screen does with its plan (docs/reference/02-running.md §2 "Functional Script
 * Input screen", §4 "Plan lifecycle", §5, §8): the script form, the script as its framework's reader
 * (Taurus or Selenium) reads it, and the lifecycle both functional editors share (useFunctionalPlan: load,
 * Save or Update, Start), with this screen's alerts.
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

/** The Selenium variant runs a UI test, so a failed start is worded as the UI screen's (§8). */
const SELENIUM_SCRIPT_SCREEN: FunctionalPlanScreen<ScriptForm, ScriptProblem> = {
  ...SCRIPT_SCREEN,
  messages: { ...SCRIPT_SCREEN.messages, startFailed: 'functional.selenium.startFailed' },
};

export function useScriptEditor({ planIdParam, rememberPlanId }: EditorAddressOptions) {
  const [form, dispatch] = useReducer(scriptFormReducer, undefined, newScriptForm);
  const selenium = form.framework === 'selenium';
  const plan = useFunctionalPlan(selenium ? SELENIUM_SCRIPT_SCREEN : SCRIPT_SCREEN, {
    planIdParam,
    rememberPlanId,
    form,
    dispatch,
  });

  // The script read by its framework's reader once typing pauses, in a worker (useScriptReading).
  const reading = useScriptReading(form.script, form.framework, form.dataFiles);

  return { ...plan, form, dispatch, ...reading };
}

export type ScriptEditor = ReturnType<typeof useScriptEditor>;
