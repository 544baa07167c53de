import { FunctionalPlanSchema, type FunctionalPlanInput } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { hasCollection } from './collection-form';
import { formOfPlan, functionalFormReducer, planBodyOf, type FunctionalFormAction } from './functional-form';

// A Postman collection's fields in the editor (docs/adr/0029-postman-collections.md): nothing an import
// carried is lost by opening the plan here and saving it, and each part can be edited.
const imported: FunctionalPlanInput = {
  test_name: 'Shop',
  apis: [
    {
      name: 'Log in',
      url: '{{baseUrl}}/login',
      group: 'Auth',
      scripts: {
        prerequest: [{ origin: 'folder Auth', source: 'pm.variables.set("n", 1);' }],
        test: [{ origin: 'request', source: 'pm.test("weird", () => pm.expect(1).to.be.ok);' }],
      },
      validations: [{ name: 'Token is returned', type: 'json_path', expected_value: '$.token' }],
    },
    { name: 'Me', url: '{{baseUrl}}/me' },
  ],
  variables: [{ name: 'baseUrl', value: 'http://127.0.0.1:8080' }],
  environment: { name: 'Local', values: [{ name: 'user', value: 'ada' }] },
  globals: [{ name: 'g', value: '1' }],
  scripts: { prerequest: [], test: [{ origin: 'collection', source: 'console.log("after");' }] },
  iteration_data: { name: 'rows.csv', format: 'csv', text: 'user\nada\nbob\n' },
  cookie_jar: true,
  follow_redirects: true,
  default_status_rule: false,
};

describe('a collection in the editor', () => {
  it('saves back exactly what was opened', () => {
    const saved = FunctionalPlanSchema.parse(imported);
    const form = formOfPlan(saved);
    expect(hasCollection(form.collection)).toBe(true);
    const again = FunctionalPlanSchema.parse(planBodyOf(form));
    for (const key of [
      'variables',
      'environment',
      'globals',
      'scripts',
      'iteration_data',
      'cookie_jar',
      'follow_redirects',
      'default_status_rule',
    ] as const)
      expect(again[key]).toEqual(saved[key]);
    expect(again.apis.map((a) => [a.group, a.scripts, a.validations[0]?.name])).toEqual(
      saved.apis.map((a) => [a.group, a.scripts, a.validations[0]?.name]),
    );
  });

  it('edits variables, the environment, options, the data file and scripts', () => {
    const form = formOfPlan(FunctionalPlanSchema.parse(imported));
    const varId = form.collection.variables[0]!.id;
    const blockId = form.apis[0]!.scripts!.test[0]!.id;
    const planBlock = form.collection.scripts.test[0]!.id;
    const actions: FunctionalFormAction[] = [
      { type: 'setVariable', scope: 'variables', rowId: varId, patch: { value: 'http://127.0.0.1:9' } },
      { type: 'addVariable', scope: 'globals' },
      { type: 'setEnvironmentName', name: null },
      { type: 'setOption', option: 'cookieJar', value: false },
      { type: 'setOption', option: 'defaultStatusRule', value: true },
      { type: 'setIterationData', data: null },
      {
        type: 'setScript',
        owner: { entryId: form.apis[0]!.entry.id },
        event: 'test',
        blockId,
        source: '// x',
      },
      { type: 'removeScript', owner: { plan: true }, event: 'test', blockId: planBlock },
    ];
    const body = planBodyOf(actions.reduce(functionalFormReducer, form));
    expect(body.variables).toEqual([{ name: 'baseUrl', value: 'http://127.0.0.1:9' }]);
    // The blank global row is not sent.
    expect(body.globals).toEqual([{ name: 'g', value: '1' }]);
    expect(body.environment).toBeUndefined();
    expect(body.cookie_jar).toBe(false);
    expect(body.follow_redirects).toBe(true);
    expect(body.default_status_rule).toBe(true);
    expect(body.iteration_data).toBeUndefined();
    expect(body.scripts).toBeUndefined();
    expect(body.apis?.[0]?.scripts?.test).toEqual([{ origin: 'request', source: '// x' }]);
    expect(body.apis?.[0]?.group).toBe('Auth');
  });

  it('adds nothing to a plan made here', () => {
    const body = planBodyOf(
      formOfPlan(FunctionalPlanSchema.parse({ test_name: 'x', apis: [{ name: 'a', url: 'http://h/' }] })),
    );
    for (const key of [
      'variables',
      'environment',
      'globals',
      'scripts',
      'iteration_data',
      'cookie_jar',
      'follow_redirects',
      'default_status_rule',
    ])
      expect(body).not.toHaveProperty(key);
    expect(body.apis?.[0]).not.toHaveProperty('scripts');
    expect(body.apis?.[0]).not.toHaveProperty('group');
  });
});
