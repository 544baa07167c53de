import { UI_VALIDATION_TYPES, type FunctionalValidationType, type HttpMethod } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { FunctionalForm } from '../../editor/model/functional-form';
import { translateFunctionalMessage } from '../../editor/model/messages';
import { checkFunctionalForm, type PlanCheck, type Problem } from '../../editor/model/plan-check';
import { actionProblemMessage, actionProblems } from './action-form';

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

/**
 * The problems of the UI tests' edited action steps (docs/adr/0030-recorded-ui-tests.md §6), each on its
 * step's field (`api:<entryId>:action.<actionId>.<field>`), in card and step order.
 */
export function uiActionProblems(form: FunctionalForm): Problem[] {
  return form.apis.flatMap((api, index) =>
    (api.actions ?? []).flatMap((action, step) =>
      actionProblems(action).map(({ field, problem }) => ({
        field: `api:${api.entry.id}:action.${action.id}.${field}`,
        message: actionProblemMessage(index + 1, step + 1, problem),
        apiNumber: index + 1,
      })),
    ),
  );
}

/** A problem's place on the screen: the name and description, the UI tests in order, then the numbers. */
function place(problem: Problem): number {
  if (problem.field === 'test_name') return 0;
  if (problem.field === 'description') return 1;
  if (problem.apiNumber !== undefined) return 2 + problem.apiNumber;
  return problem.field === 'apis' ? 2 : Number.MAX_SAFE_INTEGER;
}

/**
 * The form judged as a UI plan: the model words its problems for UI tests, iterations with the UI bounds;
 * an edited step's own problems come with its UI test's, in the place of the model's words for the same
 * step (a time left blank reaches the model as -1).
 */
export function checkUiForm(form: FunctionalForm): PlanCheck {
  const check = checkFunctionalForm(form, 'ui_url_input');
  const steps = uiActionProblems(form);
  if (steps.length === 0) return check;
  const cards = new Set(steps.map((problem) => problem.field.split(':')[1]));
  const model = check.problems.filter(
    (problem) => !(problem.field.endsWith(':actions') && cards.has(problem.field.split(':')[1])),
  );
  const problems = [...model, ...steps].sort((a, b) => place(a) - place(b));
  return { ok: false, body: check.body, problems };
}

/** A problem as the screen says it: a UI test's own message names its number, others get it in front. */
export function uiProblemText(problem: Problem, t: Translate): string {
  const message = translateFunctionalMessage(problem.message, t);
  return problem.apiNumber === undefined || message.includes(`#${problem.apiNumber}`)
    ? message
    : t('functional.ui.problemAt', { number: problem.apiNumber, message });
}
