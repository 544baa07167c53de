import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import {
  formOfPlan,
  functionalFormReducer,
  type FunctionalForm,
  type FunctionalFormAction,
} from '../../editor/model/functional-form';
import { problemsByField } from '../../editor/model/plan-check';
import { checkUiForm, uiProblemText } from './ui-form';

/* The UI plan's check with action steps (docs/adr/0030-recorded-ui-tests.md §6). */

function recordedForm(): FunctionalForm {
  return formOfPlan(
    FunctionalPlanSchema.parse({
      test_name: 'Sign in',
      source: 'ui_url_input',
      test_type: 'ui',
      apis: [
        {
          name: 'Sign in',
          url: '',
          actions: [
            { kind: 'go', source: { action: 'open /', path: 'command 1' }, url: 'http://127.0.0.1:9/' },
            {
              kind: 'click',
              source: { action: 'click id=go', path: 'command 2' },
              locators: [{ by: 'id', value: 'go' }],
            },
          ],
        },
        { name: 'Second', url: 'http://127.0.0.1:9/two' },
      ],
    }),
  );
}

function step(form: FunctionalForm, api: number, index: number) {
  const page = form.apis[api]!;
  return { entryId: page.entry.id, id: page.actions![index]!.id };
}

describe('the UI plan check with action steps', () => {
  it('passes a recorded plan untouched, and names each edited step’s problem on its field, in card order', () => {
    let form = recordedForm();
    expect(checkUiForm(form).ok).toBe(true);

    const go = step(form, 0, 0);
    const click = step(form, 0, 1);
    const second = form.apis[1]!.entry.id;
    const edits: FunctionalFormAction[] = [
      { type: 'uiActions', entryId: go.entryId, edit: { type: 'set', id: go.id, patch: { value: ' ' } } },
      {
        type: 'uiActions',
        entryId: click.entryId,
        edit: { type: 'set', id: click.id, patch: { locator: '' } },
      },
      { type: 'uiActions', entryId: second, edit: { type: 'add', kind: 'pauseFor' } },
      { type: 'entry', action: { type: 'setEntryValue', entryId: second, field: 'name', value: '' } },
    ];
    form = edits.reduce(functionalFormReducer, form);
    const pause = step(form, 1, 0);
    form = functionalFormReducer(form, {
      type: 'uiActions',
      entryId: second,
      edit: { type: 'set', id: pause.id, patch: { ms: 'later' } },
    });

    const check = checkUiForm(form);
    expect(check.ok).toBe(false);
    expect(check.problems.map((problem) => [problem.field, problem.message])).toEqual([
      [`api:${go.entryId}:action.${go.id}.value`, 'UI Test #1 step 1: a URL is required'],
      [`api:${go.entryId}:action.${click.id}.locator`, 'UI Test #1 step 2: a locator is required'],
      [`api:${second}:name`, 'UI Test #2 name is required'],
      [
        `api:${second}:action.${pause.id}.ms`,
        'UI Test #2 step 1: the time must be a whole number of ms from 0 to 600000',
      ],
    ]);
    // The model's own words for the same bad time (-1) are not said twice.
    expect(check.problems.some((problem) => problem.field.endsWith(':actions'))).toBe(false);
    expect(problemsByField(check.problems).apis[second]).toMatchObject({
      [`action.${pause.id}.ms`]: 'UI Test #2 step 1: the time must be a whole number of ms from 0 to 600000',
    });

    const [first] = check.problems;
    expect(uiProblemText(first!, createTranslate('en'))).toBe('UI Test #1 step 1: a URL is required');
    expect(uiProblemText(first!, createTranslate('ko'))).toBe('UI 테스트 #1 단계 1: URL은 필수입니다');
  });
});
