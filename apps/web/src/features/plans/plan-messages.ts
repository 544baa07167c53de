import {
  FLOW_ERRORS,
  formatSpan,
  MAX_FLOW_WEIGHT,
  MAX_PROFILE_MS,
  MAX_RATE,
  MAX_STAGES,
  MAX_USERS,
  PROFILE_ERRORS,
} from '@aqa/plan';
import { translateCallMessage } from '@/features/call-editor';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import type { FormErrors } from './model/form-to-plan';
import type { PlanForm } from './model/plan-form';
import { API_NAME_REQUIRED, firstProblem } from './model/form-to-plan';

/** The call editor's translations, the script-upload screen's own rule that an API is named, and the load profile's. */
export function translatePlanMessage(message: string, t: Translate): string {
  if (message.trim() === API_NAME_REQUIRED) return t('scriptInput.error.apiName');
  return translateProfileMessage(message, t) ?? translateCallMessage(message, t);
}

/** LoadProfileSchema's messages (packages/plan/src/load-profile.ts), with the limits they name. */
const PROFILE_MESSAGES: Record<string, (t: Translate) => string> = {
  [PROFILE_ERRORS.model]: (t) => t('loadProfile.error.model'),
  [PROFILE_ERRORS.noStage]: (t) => t('loadProfile.error.noStage'),
  [PROFILE_ERRORS.tooManyStages]: (t) => t('loadProfile.error.tooManyStages', { max: MAX_STAGES }),
  [PROFILE_ERRORS.noLength]: (t) => t('loadProfile.error.noLength'),
  [PROFILE_ERRORS.tooLong]: (t) => t('loadProfile.error.tooLong', { max: formatSpan(MAX_PROFILE_MS) }),
  [PROFILE_ERRORS.noLoad]: (t) => t('loadProfile.error.noLoad'),
  [PROFILE_ERRORS.wholeUsers]: (t) => t('loadProfile.error.wholeUsers'),
  [PROFILE_ERRORS.users]: (t) => t('loadProfile.error.users', { max: MAX_USERS }),
  [PROFILE_ERRORS.rate]: (t) => t('loadProfile.error.rate', { max: MAX_RATE.toLocaleString('en-US') }),
  [PROFILE_ERRORS.rateStep]: (t) => t('loadProfile.error.rateStep'),
  [PROFILE_ERRORS.maxUsers]: (t) => t('loadProfile.error.maxUsers', { max: MAX_USERS }),
  [PROFILE_ERRORS.maxUsersClosed]: (t) => t('loadProfile.error.maxUsersClosed'),
  'A stage target must be a number': (t) => t('loadProfile.error.targetNumber'),
  'A stage target cannot be negative': (t) => t('loadProfile.error.negative'),
  [FLOW_ERRORS.weight]: (t) => t('flows.error.weight', { max: MAX_FLOW_WEIGHT }),
};

/** The span fields' labels as parseSpanMs names them. */
const SPAN_FIELDS: Record<string, MessageKey> = {
  'Stage duration': 'loadProfile.field.stageDuration',
  'Graceful stop': 'loadProfile.field.gracefulStop',
};
const SPAN_UNREAD =
  /^(Stage duration|Graceful stop) "(.*)" is not understood: write e\.g\. 500ms, 30s, 2m or 1h$/;
const SPAN_WHOLE = /^(Stage duration|Graceful stop) "(.*)" is not a whole number of milliseconds$/;
const SPAN_LONG = /^(Stage duration|Graceful stop) "(.*)" is longer than (\S+)$/;

/** A load profile problem in the screen's language; undefined for any other message. */
export function translateProfileMessage(message: string, t: Translate): string | undefined {
  const trimmed = message.trim();
  const known = PROFILE_MESSAGES[trimmed];
  if (known) return known(t);
  const field = (label: string | undefined) =>
    t(SPAN_FIELDS[label ?? ''] ?? 'loadProfile.field.stageDuration');
  const unread = SPAN_UNREAD.exec(trimmed);
  if (unread) return t('loadProfile.error.spanUnread', { field: field(unread[1]), value: unread[2] ?? '' });
  const whole = SPAN_WHOLE.exec(trimmed);
  if (whole) return t('loadProfile.error.spanWhole', { field: field(whole[1]), value: whole[2] ?? '' });
  const long = SPAN_LONG.exec(trimmed);
  if (long)
    return t('loadProfile.error.spanLong', {
      field: field(long[1]),
      value: long[2] ?? '',
      max: long[3] ?? '',
    });
  return undefined;
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
  load_profile: 'loadProfile.title',
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
