import { useReducer } from 'react';
import {
  useFunctionalPlan,
  type EditorAddressOptions,
  type FunctionalPlanScreen,
} from '../../editor/hooks/useFunctionalPlan';
import { usePublishFunctionalPlan } from '../../editor/hooks/usePublishFunctionalPlan';
import {
  formOfPlan,
  functionalFormReducer,
  newFunctionalForm,
  type FunctionalForm,
} from '../../editor/model/functional-form';
import type { Problem } from '../../editor/model/plan-check';
import { checkUiForm, uiProblemText } from '../model/ui-form';

/**
 * Everything the UI Functional Test screen does with its plan (docs/reference/02-running.md §2, §4 "Plan
 * lifecycle", §8): the list form the API screen edits, its pages judged as a UI plan, and the lifecycle
 * the functional editors share (useFunctionalPlan: load, Save or Update, Delete, Start), with this
 * screen's alerts ('Failed to load UI test configuration', 'Failed to start UI functional test').
 */

const UI_SCREEN: FunctionalPlanScreen<FunctionalForm, Problem> = {
  screen: 'functionalUi',
  newForm: newFunctionalForm,
  formOfPlan,
  check: checkUiForm,
  problemText: uiProblemText,
  messages: {
    loadFailed: 'functional.ui.loadFailed',
    saved: 'functional.editor.saved',
    updated: 'functional.editor.updated',
    saveFailed: 'functional.editor.saveFailed',
    updateFailed: 'functional.editor.updateFailed',
    saveBeforeRunFailed: 'functional.editor.saveBeforeRunFailed',
    startFailed: 'functional.ui.startFailed',
  },
};

export function useUiEditor({ planIdParam, rememberPlanId }: EditorAddressOptions) {
  const [form, dispatch] = useReducer(functionalFormReducer, undefined, newFunctionalForm);
  const plan = useFunctionalPlan(UI_SCREEN, { planIdParam, rememberPlanId, form, dispatch });
  usePublishFunctionalPlan(UI_SCREEN, form, dispatch);
  return { ...plan, form, dispatch };
}

export type UiEditor = ReturnType<typeof useUiEditor>;
