import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import {
  formOfPlan,
  functionalFormReducer,
  newApiForm,
  newFunctionalForm,
  planBodyOf,
  type FunctionalForm,
  type FunctionalFormAction,
} from './functional-form';
import { checkFunctionalForm } from './plan-check';

function apply(form: FunctionalForm, ...actions: FunctionalFormAction[]): FunctionalForm {
  return actions.reduce(functionalFormReducer, form);
}

/** A form with one of everything an API card edits. */
function fullForm(): FunctionalForm {
  const login = newApiForm();
  const profile = newApiForm();
  const id = login.entry.id;
  const headerRow = login.entry.headers[0]?.id ?? '';
  const entry = (action: Record<string, unknown>) =>
    ({ type: 'entry', action: { entryId: id, ...action } }) as FunctionalFormAction;
  let form = apply(
    newFunctionalForm(),
    { type: 'setSetting', field: 'testName', value: 'Chain' },
    { type: 'setSetting', field: 'iterations', value: '3' },
    { type: 'setSetting', field: 'rampUp', value: '' },
    { type: 'addApi', api: login },
    { type: 'addApi', api: profile },
    entry({ type: 'setEntryValue', field: 'name', value: 'Login' }),
    entry({ type: 'setEntryValue', field: 'url', value: 'https://api.test/login' }),
    entry({ type: 'setMethod', method: 'POST' }),
    entry({ type: 'setEntryValue', field: 'payload', value: '{"u":1}' }),
    entry({ type: 'setEntryValue', field: 'timeout', value: '12' }),
    entry({ type: 'setRow', list: 'headers', rowId: headerRow, field: 'name', value: 'X-Trace' }),
    entry({ type: 'setRow', list: 'headers', rowId: headerRow, field: 'value', value: 'abc' }),
    entry({ type: 'setAuth', patch: { type: 'basic', username: 'ada', password: 'pw' } }),
    { type: 'setApiDescription', entryId: id, value: 'Signs in' },
    {
      type: 'addRule',
      entryId: id,
      rule: { type: 'header_value', expected_value: 'Content-Type: application/json', description: '' },
    },
    { type: 'addCapture', entryId: id },
  );
  const capture = form.apis[0]?.captures[0]?.id ?? '';
  form = apply(form, {
    type: 'setCapture',
    entryId: id,
    captureId: capture,
    patch: { name: 'token', expression: '$.token' },
  });
  const second = profile.entry.id;
  return apply(
    form,
    {
      type: 'entry',
      action: { type: 'setEntryValue', entryId: second, field: 'name', value: 'Profile' },
    },
    {
      type: 'entry',
      action: { type: 'setEntryValue', entryId: second, field: 'url', value: 'https://api.test/me' },
    },
    {
      type: 'entry',
      action: { type: 'setAuth', entryId: second, patch: { type: 'bearer', token: '{{token}}' } },
    },
  );
}

/** The body without the form's own ids (new on every load). */
function withoutIds(form: FunctionalForm) {
  const body = planBodyOf(form);
  return {
    ...body,
    apis: body.apis?.map(({ id: _id, validations, ...api }) => ({
      ...api,
      validations: validations?.map(({ id: _rule, ...rule }) => rule),
    })),
  };
}

describe('the functional URL input form', () => {
  it('sends what it edits and reads a saved plan back to the same plan', () => {
    const form = fullForm();
    const body = planBodyOf(form);
    expect(body).toMatchObject({
      test_name: 'Chain',
      iterations: 3,
      ramp_up_time: '',
      source: 'url_input',
      test_type: 'functional',
      test_framework: 'taurus',
    });
    expect(body.apis?.[0]).toMatchObject({
      name: 'Login',
      method: 'POST',
      body: '{"u":1}',
      timeout: '12',
      headers: { 'X-Trace': 'abc' },
      authorization: { type: 'basic', username: 'ada', password: 'pw' },
      description: 'Signs in',
      captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
      validations: [{ type: 'header_value', expected_value: 'Content-Type: application/json' }],
    });
    const saved = FunctionalPlanSchema.parse(body);
    expect(saved.ramp_up_time).toBe(0);
    const again = formOfPlan(saved);
    expect(withoutIds(again)).toEqual({ ...withoutIds(form), ramp_up_time: 0 });
  });

  it('lets the Authorization tab replace an Authorization header row, and sends the row when the tab is empty', () => {
    const api = newApiForm();
    const row = api.entry.headers[0]?.id ?? '';
    const entryId = api.entry.id;
    const form = apply(
      newFunctionalForm(),
      { type: 'addApi', api },
      {
        type: 'entry',
        action: {
          type: 'setRow',
          entryId,
          list: 'headers',
          rowId: row,
          field: 'name',
          value: 'Authorization',
        },
      },
      {
        type: 'entry',
        action: { type: 'setRow', entryId, list: 'headers', rowId: row, field: 'value', value: 'Digest abc' },
      },
    );
    expect(planBodyOf(form).apis?.[0]?.headers).toEqual({ Authorization: 'Digest abc' });
    // A row with a blank value is not sent, as the row editor says.
    const halfRow = { id: 'row-half', name: 'X-Empty', value: ' ' };
    const withHalfRow = apply(form, {
      type: 'entry',
      action: { type: 'addRow', entryId, list: 'headers', row: halfRow },
    });
    expect(planBodyOf(withHalfRow).apis?.[0]?.headers).toEqual({ Authorization: 'Digest abc' });
    const replaced = apply(form, {
      type: 'entry',
      action: { type: 'setAuth', entryId, patch: { type: 'bearer', token: 't' } },
    });
    expect(planBodyOf(replaced).apis?.[0]?.headers).toEqual({});
  });

  it('duplicates, moves and removes APIs, and adds a rule only with an expected value', () => {
    const form = fullForm();
    const [first, second] = form.apis;
    const copied = apply(form, { type: 'duplicateApi', entryId: first?.entry.id ?? '' });
    expect(copied.apis.map((api) => api.entry.name)).toEqual(['Login', 'Login (copy)', 'Profile']);
    const copy = copied.apis[1];
    expect(copy?.entry.id).not.toBe(first?.entry.id);
    expect(copy?.entry.headers[0]?.id).not.toBe(first?.entry.headers[0]?.id);
    expect(copy?.rules[0]?.id).not.toBe(first?.rules[0]?.id);
    const moved = apply(copied, { type: 'moveApi', from: 2, to: 0 });
    expect(moved.apis.map((api) => api.entry.name)).toEqual(['Profile', 'Login', 'Login (copy)']);
    expect(apply(moved, { type: 'moveApi', from: 0, to: 3 })).toBe(moved);
    const removed = apply(moved, { type: 'removeApi', entryId: second?.entry.id ?? '' });
    expect(removed.apis).toHaveLength(2);
    const blank = apply(form, {
      type: 'addRule',
      entryId: first?.entry.id ?? '',
      rule: { type: 'status_code', expected_value: '  ', description: '' },
    });
    expect(blank).toBe(form);
  });

  it('judges the form with the model: the reference’s messages first, each where the form shows it', () => {
    const blank = apply(newFunctionalForm(), { type: 'addApi', api: newApiForm() });
    const check = checkFunctionalForm(blank);
    expect(check.ok).toBe(false);
    const id = blank.apis[0]?.entry.id ?? '';
    expect(check.problems).toEqual([
      { field: 'test_name', message: 'Test name is required' },
      { field: `api:${id}:name`, message: 'API #1 name is required', apiNumber: 1 },
      { field: `api:${id}:url`, message: 'API #1 URL is required', apiNumber: 1 },
    ]);
    expect(checkFunctionalForm(newFunctionalForm()).problems.map((p) => p.message)).toEqual([
      'Test name is required',
      'At least one API must be configured',
    ]);
    const outOfBounds = apply(fullForm(), { type: 'setSetting', field: 'thinkTime', value: '61' });
    expect(checkFunctionalForm(outOfBounds).problems).toEqual([
      { field: 'think_time', message: 'Think time must be a whole number of seconds from 0 to 60' },
    ]);
    const full = fullForm();
    const login = full.apis[0];
    const capture = login?.captures[0]?.id ?? '';
    const badCapture = apply(full, {
      type: 'setCapture',
      entryId: login?.entry.id ?? '',
      captureId: capture,
      patch: { expression: 'token' },
    });
    expect(checkFunctionalForm(badCapture).problems).toEqual([
      {
        field: `api:${login?.entry.id ?? ''}:capture.${capture}.expression`,
        message: 'A JSON path capture starts with $',
        apiNumber: 1,
      },
    ]);
  });
});

describe('rule names after a delete (issue 24)', () => {
  it('renumbers the numbered rules so they read 1, 2, 3 again; a rule the user named keeps its name', () => {
    const api = newApiForm();
    const id = api.entry.id;
    const add = (expected: string): FunctionalFormAction => ({
      type: 'addRule',
      entryId: id,
      rule: { type: 'status_code', expected_value: expected, description: '' },
    });
    let form = apply(
      newFunctionalForm(),
      { type: 'addApi', api },
      add('200'),
      add('201'),
      add('202'),
      add('203'),
    );
    const rules = () => form.apis[0]?.rules ?? [];
    // A plan saved elsewhere may name a rule in its own words.
    const named = rules().map((rule, index) => (index === 3 ? { ...rule, name: 'Created' } : rule));
    form = apply(form, { type: 'load', form: { ...form, apis: [{ ...form.apis[0]!, rules: named }] } });
    form = apply(form, { type: 'removeRule', entryId: id, ruleId: rules()[1]!.id });
    expect(rules().map((rule) => rule.name)).toEqual(['Validation 1', 'Validation 2', 'Created']);
    form = apply(form, add('204'));
    expect(rules().map((rule) => rule.name)).toEqual([
      'Validation 1',
      'Validation 2',
      'Created',
      'Validation 4',
    ]);
  });
});

describe("a recorded UI test's actions (docs/adr/0030-recorded-ui-tests.md §1)", () => {
  it('keeps every action of a step through the editor, so saving loses none', () => {
    const actions = [
      {
        kind: 'go',
        source: { action: 'open /check.html', path: "Selenium IDE test 't', command 1" },
        url: 'http://x.test/check.html',
      },
      {
        kind: 'check',
        soft: true,
        source: { action: 'check id=f', path: "Selenium IDE test 't', command 2" },
        locators: [{ by: 'id', value: 'f' }],
      },
    ];
    const plan = FunctionalPlanSchema.parse({
      test_name: 'Recorded',
      source: 'ui_url_input',
      test_type: 'ui',
      apis: [{ name: 't', url: '', actions }],
    });
    const body = planBodyOf(formOfPlan(plan), 'ui_url_input');
    expect(FunctionalPlanSchema.parse(body).apis[0]?.actions).toEqual(plan.apis[0]?.actions);
  });
});
