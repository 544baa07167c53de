import { translateCallMessage } from '@/features/call-editor';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import type { FormErrors } from './model/form-to-plan';
import type { PlanForm } from './model/plan-form';
import { API_NAME_REQUIRED, firstProblem } from './model/form-to-plan';

/** The call editor's translations, and the script-upload screen's own rule that an API is named. */
export function translatePlanMessage(message: string, t: Translate): string {
  return message.trim() === API_NAME_REQUIRED
    ? t('scriptInput.error.apiName')
    : translateCallMessage(message, t);
}

/** Labels of the model's fields, by the first part of a field path. */
const FIELD_LABELS: Record<string, MessageKey> = {
  name: 'plans.planName',
  tool: 'plans.tool',
  concurrent_users: 'plans.concurrentUsers',
  duration: 'plans.duration',
  urls: 'plans.apisTitle',
  url: 'plans.url',
  method: 'plans.method',
  payload: 'plans.payload',
  parameters: 'plans.tabParameters',
  headers: 'plans.tabHeaders',
  authorization: 'plans.tabAuthorization',
  extractType: 'plans.extractType',
  extractName: 'plans.extractName',
  extractValue: 'plans.extractValue',
  assertionType: 'plans.assertionType',
  assertionPath: 'plans.assertionPath',
  assertionOperator: 'plans.assertionOperator',
  assertionValue: 'plans.assertionValue',
  thinkTime: 'plans.thinkTime',
  transactionRate: 'plans.transactionRate',
  timeout: 'plans.timeout',
  validations: 'plans.validationsTitle',
};

export function fieldLabel(field: string, t: Translate): string {
  const head = field.split('.')[0] ?? field;
  const key = FIELD_LABELS[head];
  return key ? t(key) : field;
}

/** "API 2, URL: Enter the URL" — the first problem of the form, for the spec's alerts. */
export function describeFirstProblem(errors: FormErrors, form: PlanForm, t: Translate): string | undefined {
  const problem = firstProblem(errors, form);
  if (!problem) return undefined;
  const message = translatePlanMessage(problem.message, t);
  // An entry's "name" is the API's name, not the plan's.
  const field =
    problem.entryNumber !== undefined && problem.field === 'name'
      ? t('scriptInput.apiName')
      : fieldLabel(problem.field, t);
  return problem.entryNumber === undefined
    ? t('plans.problem', { field, message })
    : t('plans.problemAt', { number: problem.entryNumber, field, message });
}
