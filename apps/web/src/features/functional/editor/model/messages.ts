import { translateLimitMessage } from '@/i18n/limit-message';
import {
  FUNCTIONAL_BOUNDS,
  FUNCTIONAL_PLAN_ERRORS,
  PATTERN_ENGINE_NOTE,
  UNSUPPORTED_PATTERN_CONSTRUCTS,
  VALIDATION_ERRORS,
  type UnsupportedPatternConstruct,
} from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { readActionProblem } from '../../ui-editor/model/action-form';

/**
 * The functional model writes its messages in English (packages/plan/src/functional, the messages of
 * docs/reference/02-running.md §5); the ones this form shows are translated here. Anything else is shown
 * as the model wrote it.
 */

type Bounds = { min: number; max: number };

const FIXED: Record<string, { key: MessageKey; bounds?: Bounds }> = {
  [FUNCTIONAL_PLAN_ERRORS.testNameRequired]: { key: 'functional.error.testNameRequired' },
  [FUNCTIONAL_PLAN_ERRORS.apisRequired]: { key: 'functional.error.apisRequired' },
  [FUNCTIONAL_PLAN_ERRORS.uiTestsRequired]: { key: 'functional.error.uiTestsRequired' },
  [FUNCTIONAL_PLAN_ERRORS.usersRange]: {
    key: 'functional.error.usersRange',
    bounds: FUNCTIONAL_BOUNDS.concurrent_users,
  },
  [FUNCTIONAL_PLAN_ERRORS.iterationsRange]: {
    key: 'functional.error.iterationsRange',
    bounds: FUNCTIONAL_BOUNDS.iterations,
  },
  [FUNCTIONAL_PLAN_ERRORS.uiIterationsRange]: {
    key: 'functional.error.iterationsRange',
    bounds: FUNCTIONAL_BOUNDS.ui_iterations,
  },
  [FUNCTIONAL_PLAN_ERRORS.durationRange]: {
    key: 'functional.error.durationRange',
    bounds: FUNCTIONAL_BOUNDS.test_duration,
  },
  [FUNCTIONAL_PLAN_ERRORS.rampUpRange]: {
    key: 'functional.error.rampUpRange',
    bounds: FUNCTIONAL_BOUNDS.ramp_up_time,
  },
  [FUNCTIONAL_PLAN_ERRORS.thinkTimeRange]: {
    key: 'functional.error.thinkTimeRange',
    bounds: FUNCTIONAL_BOUNDS.think_time,
  },
  [FUNCTIONAL_PLAN_ERRORS.urlShape]: { key: 'functional.error.urlShape' },
  [FUNCTIONAL_PLAN_ERRORS.captureName]: { key: 'functional.error.captureName' },
  [FUNCTIONAL_PLAN_ERRORS.captureExpression]: { key: 'functional.error.captureExpression' },
  [FUNCTIONAL_PLAN_ERRORS.captureRegex]: { key: 'functional.error.captureRegex' },
  [FUNCTIONAL_PLAN_ERRORS.captureJsonPath]: { key: 'functional.error.captureJsonPath' },
  [FUNCTIONAL_PLAN_ERRORS.captureHeader]: { key: 'functional.error.captureHeader' },
  [VALIDATION_ERRORS.expectedRequired]: { key: 'functional.error.expectedRequired' },
  [VALIDATION_ERRORS.statusCode]: { key: 'functional.error.statusCode' },
  [VALIDATION_ERRORS.responseTime]: { key: 'functional.error.responseTime' },
  [VALIDATION_ERRORS.responseSize]: { key: 'functional.error.responseSize' },
  [VALIDATION_ERRORS.jsonPath]: { key: 'functional.error.jsonPath' },
  [VALIDATION_ERRORS.regex]: { key: 'functional.error.regex' },
  [VALIDATION_ERRORS.headerValue]: { key: 'functional.error.headerValue' },
  [VALIDATION_ERRORS.schema]: { key: 'functional.error.schema' },
};

const NUMBERED: { pattern: RegExp; key: MessageKey }[] = [
  { pattern: /^API #(\d+) name is required$/, key: 'functional.error.apiNameRequired' },
  { pattern: /^API #(\d+) URL is required$/, key: 'functional.error.apiUrlRequired' },
  { pattern: /^UI Test #(\d+) name is required$/, key: 'functional.error.uiTestNameRequired' },
  { pattern: /^UI Test #(\d+) URL is required$/, key: 'functional.error.uiTestUrlRequired' },
];

/** The model's words for a pattern the linear-time engine cannot run (packages/plan/src/user-pattern.ts). */
const PATTERN_UNSUPPORTED = ` is not supported — ${PATTERN_ENGINE_NOTE}`;
const PATTERN_INVALID = /^not a valid pattern: (.*) — patterns run on a linear-time engine \(RE2 syntax\)$/s;

function translatePattern(message: string, t: Translate): string | undefined {
  if (message.endsWith(PATTERN_UNSUPPORTED)) {
    const label = message.slice(0, -PATTERN_UNSUPPORTED.length);
    const key = (Object.keys(UNSUPPORTED_PATTERN_CONSTRUCTS) as UnsupportedPatternConstruct[]).find(
      (k) => UNSUPPORTED_PATTERN_CONSTRUCTS[k] === label,
    );
    if (key !== undefined) {
      return t('functional.error.patternUnsupported', { construct: t(`functional.patternConstruct.${key}`) });
    }
  }
  const reason = PATTERN_INVALID.exec(message)?.[1];
  return reason === undefined ? undefined : t('functional.error.patternInvalid', { reason });
}

export function translateFunctionalMessage(message: string, t: Translate): string {
  const limit = translateLimitMessage(message, t);
  if (limit !== undefined) return limit;
  const pattern = translatePattern(message, t);
  if (pattern !== undefined) return pattern;
  const step = readActionProblem(message);
  if (step !== undefined)
    return t(`functional.error.uiAction.${step.problem}`, { number: step.number, step: step.step });
  const fixed = FIXED[message];
  if (fixed) return fixed.bounds ? t(fixed.key, { ...fixed.bounds }) : t(fixed.key);
  for (const { pattern, key } of NUMBERED) {
    const number = pattern.exec(message)?.[1];
    if (number) return t(key, { number });
  }
  return message;
}
