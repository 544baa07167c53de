import { MAX_DURATION_MIN, MAX_USERS, MIN_DURATION_MIN, MIN_USERS, PLAN_ERRORS } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { errorDetailMessage } from '@/i18n/error-messages';
import { translateLimitMessage } from '@/i18n/limit-message';
import type { FormErrors } from './model/form-to-plan';
import type { PlanForm } from './model/plan-form';
import { API_NAME_REQUIRED, firstProblem } from './model/form-to-plan';

/** The model writes its messages in English; the ones the form shows often are translated. */
const KNOWN_MESSAGES: Record<string, MessageKey> = {
  [PLAN_ERRORS.nameRequired]: 'plans.error.nameRequired',
  [PLAN_ERRORS.urlRequired]: 'plans.error.urlRequired',
  [PLAN_ERRORS.noApisToGenerate]: 'plans.error.noApisToGenerate',
  [PLAN_ERRORS.noApisToValidate]: 'plans.error.noApisToValidate',
  [PLAN_ERRORS.usersRange]: 'plans.error.usersRange',
  [PLAN_ERRORS.durationRange]: 'plans.error.durationRange',
  'Enter the URL': 'plans.error.enterUrl',
  'Enter a full URL starting with http:// or https:// (or with a {{variable}})': 'plans.error.fullUrl',
  'Variable name must start with a letter or _ and hold only letters, digits, _ . -':
    'plans.error.variableName',
  'Transaction rate must be a percent from 0 to 100, or blank for 100': 'plans.error.transactionRate',
  'A header value cannot contain a line break': 'plans.error.headerLineBreak',
  [API_NAME_REQUIRED]: 'scriptInput.error.apiName',
};

export function translatePlanMessage(message: string, t: Translate): string {
  const limit = translateLimitMessage(message, t);
  if (limit !== undefined) return limit;
  const key = KNOWN_MESSAGES[message.trim()];
  if (!key) return message;
  return key === 'plans.error.usersRange'
    ? t(key, { min: MIN_USERS, max: MAX_USERS })
    : key === 'plans.error.durationRange'
      ? t(key, { min: MIN_DURATION_MIN, max: MAX_DURATION_MIN })
      : t(key);
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

/** A failed call, for "Failed to … : {message}": the server's detail first (translated when known). */
export function callErrorMessage(error: unknown, t: Translate): string {
  return translatePlanMessage(errorDetailMessage(error, t), t);
}
