import { UI_VALIDATION_TYPES, type FunctionalValidationType, type HttpMethod } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { FunctionalForm } from '../../editor/model/functional-form';
import { translateFunctionalMessage } from '../../editor/model/messages';
import { checkFunctionalForm, type PlanCheck, type Problem } from '../../editor/model/plan-check';

/**
 * The UI Functional Test screen's plan (docs/reference/02-running.md §2 "UI tests", §5,
 * §7): the API screen's form, whose calls are the pages a browser opens in order, saved and run as source
 * ui_url_input, test type ui, Selenium. FunctionalPlanSchema alone judges it (docs/design.md §9), and
 * words its problems for UI tests ('UI Test #n URL is required').
 */

/** A page is opened with GET, or sent a form with POST. */
export const UI_METHODS = ['GET', 'POST'] as const satisfies readonly HttpMethod[];

/** What a page's validation can check: its text, an element (CSS or XPath), its title. */
export type UiRuleType = (typeof UI_VALIDATION_TYPES)[number];

export function isUiRuleType(type: FunctionalValidationType): type is UiRuleType {
  return (UI_VALIDATION_TYPES as readonly string[]).includes(type);
}

/** The methods a page's select offers: GET and POST, and a loaded plan's other method as it is. */
export function uiMethodsFor(method: HttpMethod): readonly HttpMethod[] {
  return (UI_METHODS as readonly HttpMethod[]).includes(method) ? UI_METHODS : [...UI_METHODS, method];
}

/** The form judged as a UI plan: the model words its problems for UI tests, iterations with the UI bounds. */
export function checkUiForm(form: FunctionalForm): PlanCheck {
  return checkFunctionalForm(form, 'ui_url_input');
}

/** A problem as the screen says it: a UI test's own message names its number, others get it in front. */
export function uiProblemText(problem: Problem, t: Translate): string {
  const message = translateFunctionalMessage(problem.message, t);
  return problem.apiNumber === undefined || message.includes(`#${problem.apiNumber}`)
    ? message
    : t('functional.ui.problemAt', { number: problem.apiNumber, message });
}
