import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { readSeleniumScript } from '@aqa/converters';
import { API_SAMPLE_SCRIPT, SELENIUM_SAMPLE_SCRIPT } from './samples';
import { deleteRequest, parseYamlPath, setAuthorizationHeader, swapRequests } from './script-edit';
import {
  checkScriptForm,
  newScriptForm,
  scriptFormOfPlan,
  scriptFormReducer,
  type ScriptForm,
} from './script-form';
import { cut, readScript, scriptMarks } from './script-read';
import { uiActionTarget, uiActionValue } from '@aqa/plan';
import { readSelenium } from './selenium-read';

const SCRIPT = `# two calls
execution:
  - concurrency: 2
    iterations: 3
    hold-for: 2m
    scenario: shop

scenarios:
  shop:
    requests:
      - url: http://127.0.0.1:9/login
        label: Login
        method: POST
      - http://127.0.0.1:9/items
      - if: \${ok}
        then:
          - http://127.0.0.1:9/never
`;

function apiNames(script: string): string[] {
  const read = readScript(script);
  if (!read.ok) throw new Error(read.message);
  return read.apis.map((api) => api.name);
}

describe('the script screen model', () => {
  it('reads the sample as the spec asks: concurrency 1, hold-for 1m, two APIs and no warnings', () => {
    const read = readScript(API_SAMPLE_SCRIPT);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.execution).toMatchObject({ concurrent_users: 1, test_duration: 1 });
    expect(read.apis.map((api) => [api.method, api.name])).toEqual([
      ['GET', 'Get post'],
      ['POST', 'Create post'],
    ]);
    expect(read.warnings).toEqual([]);
  });

  it('puts each warning on the line the reader names, and says where YAML breaks', () => {
    const read = readScript(SCRIPT);
    const ifLine = SCRIPT.split('\n').findIndex((line) => line.includes('- if:')) + 1;
    expect(scriptMarks(read).map((mark) => mark.line)).toContain(ifLine);
    const broken = readScript('execution:\n  - concurrency: [1\n');
    expect(broken.ok).toBe(false);
    expect(broken.ok ? undefined : broken.line).toBeGreaterThan(0);
    const line = broken.ok ? 0 : (broken.line ?? 0);
    expect(scriptMarks(broken).find((mark) => mark.line === line)?.severity).toBe('error');
    expect(readScript('   ')).toEqual({ ok: false, message: '', warnings: [] });
  });

  it('moves, deletes and authorises requests in the script itself, keeping its comments', () => {
    expect(parseYamlPath('scenarios["my shop"].requests[2]')).toEqual([
      'scenarios',
      'my shop',
      'requests',
      2,
    ]);
    const read = readScript(SCRIPT);
    if (!read.ok) throw new Error(read.message);
    const [login, items] = read.apis;
    const swapped = swapRequests(SCRIPT, login!.source.path, items!.source.path);
    expect(swapped).toContain('# two calls');
    expect(apiNames(swapped)[1]).toBe('Login');
    const deleted = deleteRequest(SCRIPT, login!.source.path);
    expect(apiNames(deleted)).toHaveLength(1);
    expect(apiNames(deleted)[0]).not.toBe('Login');
    const authorised = setAuthorizationHeader(
      SCRIPT,
      read.apis.map((api) => api.source.path),
      'Bearer abc',
    );
    const again = readScript(authorised);
    if (!again.ok) throw new Error(again.message);
    expect(again.apis.map((api) => api.headers.Authorization)).toEqual(['Bearer abc', 'Bearer abc']);
    expect(() => deleteRequest(SCRIPT, 'scenarios.shop.requests[9]')).toThrow(/Cannot find/);
  });

  it('turns to the Selenium reading when every execution of the script runs in a browser', () => {
    const taurus = scriptFormReducer(newScriptForm(), { type: 'setScript', script: API_SAMPLE_SCRIPT });
    expect(taurus.framework).toBe('taurus');
    expect(scriptFormReducer(taurus, { type: 'setScript', script: SELENIUM_SAMPLE_SCRIPT }).framework).toBe(
      'selenium',
    );
    // Chosen by hand, Selenium stays for any script.
    const chosen = scriptFormReducer(newScriptForm(), { type: 'setFramework', framework: 'selenium' });
    expect(scriptFormReducer(chosen, { type: 'setScript', script: API_SAMPLE_SCRIPT }).framework).toBe(
      'selenium',
    );
  });

  it('names a blank test name and a blank script, in that order, as the spec words them', () => {
    const check = checkScriptForm(newScriptForm());
    expect(check.problems.map((problem) => problem.message)).toEqual([
      'Test name is required',
      'Script content is required',
    ]);
  });

  it('keeps an API’s rules as plan rules naming the API, sent with string ids, and reads them back', () => {
    let form: ScriptForm = scriptFormReducer(newScriptForm(), { type: 'setScript', script: SCRIPT });
    form = scriptFormReducer(form, { type: 'setSetting', field: 'testName', value: 'Shop' });
    const target = { api_name: 'Login', url: 'http://127.0.0.1:9/login', method: 'POST' as const };
    form = scriptFormReducer(form, {
      type: 'addRule',
      target,
      rule: { type: 'status_code', expected_value: '', description: '' },
    });
    expect(form.rules).toHaveLength(0);
    form = scriptFormReducer(form, {
      type: 'addRule',
      target,
      rule: { type: 'status_code', expected_value: '201', description: 'created' },
    });
    form = scriptFormReducer(form, {
      type: 'addRule',
      target: null,
      rule: { type: 'response_time', expected_value: '500', description: '' },
    });
    const check = checkScriptForm(form);
    expect(check.ok).toBe(true);
    expect(check.body).toMatchObject({
      source: 'script_input',
      source_page: 'functional-script-input',
      script_content: SCRIPT,
      apis: [],
      validations: [
        { type: 'status_code', expected_value: '201', api_name: 'Login', method: 'POST' },
        { type: 'response_time', expected_value: '500' },
      ],
    });
    expect(check.body.validations?.every((rule) => typeof rule.id === 'string')).toBe(true);
    const back = scriptFormOfPlan(FunctionalPlanSchema.parse(check.body));
    expect(back.rules.map((rule) => rule.api_name ?? null)).toEqual(['Login', null]);
    expect(scriptFormReducer(back, { type: 'removeRulesOf', apiName: 'Login' }).rules).toHaveLength(1);
  });

  it('fills the settings from a read script, keeping a name already typed', () => {
    const read = readScript(SCRIPT);
    if (!read.ok) throw new Error(read.message);
    const form = scriptFormReducer(newScriptForm(), { type: 'applyExecution', execution: read.execution });
    expect(form.settings).toMatchObject({ concurrentUsers: '2', iterations: '3', duration: '2' });
  });

  it('cuts previews', () => {
    expect(cut('a'.repeat(120), 100)).toBe(`${'a'.repeat(100)}...`);
    expect(cut('short', 50)).toBe('short');
  });

  it('offers a browser example the Selenium reader reads with no warning: go, type, click, waitFor, assertTitle', () => {
    const read = readSeleniumScript(SELENIUM_SAMPLE_SCRIPT);
    expect(read.warnings).toEqual([]);
    expect(read.pages.map((page) => page.url)).toEqual(['http://localhost:8080/', null]);
    const kinds = new Set(read.pages.flatMap((page) => page.actions.map((step) => step.kind)));
    for (const kind of ['go', 'type', 'click', 'waitFor', 'assertTitle', 'select'] as const) {
      expect(kinds).toContain(kind);
    }
    const steps = read.pages[0]!.actions;
    expect(
      steps.map((step) => [step.source.action, uiActionTarget(step), uiActionValue(step)]),
    ).toContainEqual(['waitForByID', 'id: username', 'visible, 10 s']);
  });

  it('saves a Selenium script as a UI test without plan rules, and reads it back in its variant', () => {
    const seleniumRead = readSelenium(SELENIUM_SAMPLE_SCRIPT);
    if (!seleniumRead.ok) throw new Error(seleniumRead.message);
    let form: ScriptForm = scriptFormReducer(newScriptForm(), {
      type: 'setScript',
      script: SELENIUM_SAMPLE_SCRIPT,
    });
    form = scriptFormReducer(form, {
      type: 'addRule',
      target: null,
      rule: { type: 'status_code', expected_value: '200', description: '' },
    });
    form = scriptFormReducer(form, { type: 'setFramework', framework: 'selenium' });
    form = scriptFormReducer(form, { type: 'applyExecution', execution: seleniumRead.execution });
    const check = checkScriptForm(form);
    expect(check.ok).toBe(true);
    expect(check.body).toMatchObject({
      test_name: 'sign-in',
      test_type: 'ui',
      test_framework: 'selenium',
      source: 'script_input',
      iterations: 1,
      validations: [],
    });
    const back = scriptFormOfPlan(FunctionalPlanSchema.parse(check.body));
    expect(back.framework).toBe('selenium');
    // Back to Taurus, the rule typed there is still in the form.
    expect(checkScriptForm({ ...form, framework: 'taurus' }).body.validations).toHaveLength(1);
    // A UI test runs at most 10 iterations (docs/reference/02-running.md §5).
    const many = scriptFormReducer(form, { type: 'setSetting', field: 'iterations', value: '11' });
    expect(checkScriptForm(many).problems.map((problem) => problem.field)).toEqual(['iterations']);
  });
});

describe('script rule names after a delete (issue 24)', () => {
  it("renumbers each API's numbered rules by their place again", () => {
    const login = { api_name: 'Login', url: 'http://127.0.0.1:9/login', method: 'POST' as const };
    let form: ScriptForm = newScriptForm();
    for (const [target, expected] of [
      [login, '200'],
      [null, '500'],
      [login, '201'],
      [login, '202'],
    ] as const) {
      form = scriptFormReducer(form, {
        type: 'addRule',
        target,
        rule: { type: 'status_code', expected_value: expected, description: '' },
      });
    }
    expect(form.rules.map((rule) => rule.name)).toEqual([
      'Validation 1',
      'Validation 1',
      'Validation 2',
      'Validation 3',
    ]);
    form = scriptFormReducer(form, { type: 'removeRule', ruleId: form.rules[2]!.id });
    expect(form.rules.map((rule) => [rule.api_name ?? null, rule.name])).toEqual([
      ['Login', 'Validation 1'],
      [null, 'Validation 1'],
      ['Login', 'Validation 2'],
    ]);
  });
});
