import { MAX_DURATION_MIN, MAX_USERS, MIN_DURATION_MIN, MIN_USERS, PLAN_ERRORS } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { errorDetailMessage } from '@/i18n/error-messages';
import { translateLimitMessage } from '@/i18n/limit-message';

/** The model writes its messages in English; the ones the editors show often are translated. */
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
};

/** A message of the model (a limit, a call's or a plan's problem) in the active language, when known. */
export function translateCallMessage(message: string, t: Translate): string {
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

/** A failed call, for "Failed to … : {message}": the server's detail first (translated when known). */
export function callErrorMessage(error: unknown, t: Translate): string {
  return translateCallMessage(errorDetailMessage(error, t), t);
}
