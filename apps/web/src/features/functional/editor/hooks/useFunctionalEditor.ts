import { useMemo, useReducer } from 'react';
import type { Translate } from '@/i18n';
import {
  formOfPlan,
  functionalFormReducer,
  newFunctionalForm,
  type FunctionalApiForm,
  type FunctionalForm,
} from '../model/functional-form';
import { savedCliPlan } from '../model/cli-plan';
import { translateFunctionalMessage } from '../model/messages';
import { checkFunctionalForm, type Problem } from '../model/plan-check';
import { useFunctionalPlan, type EditorAddressOptions, type FunctionalPlanScreen } from './useFunctionalPlan';
import { usePublishFunctionalPlan } from './usePublishFunctionalPlan';

/**
 * Everything the functional URL input screen does with its plan (docs/reference/02-running.md §2, §4 "Plan
 * lifecycle", §8): the form of API cards, and the lifecycle both functional editors share
 * (useFunctionalPlan: load, Save or Update, Delete, Start), with this screen's alerts.
 */

function problemText(problem: Problem, t: Translate): string {
  const message = translateFunctionalMessage(problem.message, t);
  // The reference's own API messages name their API already ("API #2 URL is required").
  return problem.apiNumber === undefined || message.includes(`#${problem.apiNumber}`)
    ? message
    : t('functional.editor.problemAt', { number: problem.apiNumber, message });
}

const URL_SCREEN: FunctionalPlanScreen<FunctionalForm, Problem> = {
  screen: 'functionalUrl',
  newForm: newFunctionalForm,
  formOfPlan,
  check: checkFunctionalForm,
  problemText,
  messages: {
    loadFailed: 'functional.editor.loadFailed',
    saved: 'functional.editor.saved',
    updated: 'functional.editor.updated',
    saveFailed: 'functional.editor.saveFailed',
    updateFailed: 'functional.editor.updateFailed',
    saveBeforeRunFailed: 'functional.editor.saveBeforeRunFailed',
    startFailed: 'functional.editor.startFailed',
  },
};

export function useFunctionalEditor({ planIdParam, rememberPlanId }: EditorAddressOptions) {
  const [form, dispatch] = useReducer(functionalFormReducer, undefined, newFunctionalForm);
  const plan = useFunctionalPlan(URL_SCREEN, { planIdParam, rememberPlanId, form, dispatch });
  usePublishFunctionalPlan(URL_SCREEN, form, dispatch);
  const { savedBody, savedId } = plan;
  // What "Download for aqa test" writes: the plan last saved, as the model reads it.
  const savedPlan = useMemo(() => savedCliPlan(savedBody, savedId), [savedBody, savedId]);

  const appendApis = (apis: FunctionalApiForm[]) => {
    if (apis.length > 0) dispatch({ type: 'appendApis', apis });
  };

  return { ...plan, form, dispatch, savedPlan, appendApis };
}

export type FunctionalEditor = ReturnType<typeof useFunctionalEditor>;
