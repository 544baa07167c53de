import type { Dispatch } from 'react';
import type { FunctionalApiForm, FunctionalFormAction } from '../../editor/model/functional-form';
import { ValidationRulesPanel } from '../../editor/components/ValidationRulesPanel';
import type { RuleTarget, ScriptFormAction, ScriptRuleForm } from '../model/script-form';
import { createEntry } from '@/features/call-editor';

/**
 * The URL screen's validation panel (list, enabled switch, remove, and the Add form whose Add stays
 * disabled while the expected value is blank, docs/reference/02-running.md §5) on the script screen's
 * rules: one API's (target) or the Global Validation Rules (target null). Its edits become the script
 * form's rule actions.
 */
export function ScriptRulesPanel({
  panelId,
  target,
  rules,
  dispatch,
  testId,
  labels,
}: {
  /** A stable id for the panel's fields. */
  panelId: string;
  target: RuleTarget | null;
  rules: ScriptRuleForm[];
  dispatch: Dispatch<ScriptFormAction>;
  testId: string;
  labels: { title?: string; text?: string; empty: string };
}) {
  const api: FunctionalApiForm = {
    entry: { ...createEntry({ name: target?.api_name ?? '', url: target?.url ?? '' }), id: panelId },
    description: '',
    rules,
    captures: [],
  };
  const forward: Dispatch<FunctionalFormAction> = (action) => {
    switch (action.type) {
      case 'addRule':
        dispatch({ type: 'addRule', target, rule: action.rule });
        return;
      case 'toggleRule':
        dispatch({ type: 'toggleRule', ruleId: action.ruleId, enabled: action.enabled });
        return;
      case 'removeRule':
        dispatch({ type: 'removeRule', ruleId: action.ruleId });
        return;
      default:
        return;
    }
  };
  return <ValidationRulesPanel api={api} dispatch={forward} errors={{}} testId={testId} labels={labels} />;
}
