import { describe, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { fixture } from '../../../test/fixtures';
import { ImportError } from '../import-model';
import { isSeleniumIdeProject, readSeleniumIdeProject } from './selenium-ide';

/*
 * Selenium IDE projects as UI plans (docs/adr/0030-recorded-ui-tests.md §2): the project's own example
 * suites (../shared/fixtures/selenium-ide/sides) and hand-written projects for every mapping and refusal.
 */

const side = (commands: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'Project',
  text: JSON.stringify({
    name: 'Shop',
    url: 'https://shop.test/',
    tests: [{ id: 't', name: 'Sign in', commands }],
    ...extra,
  }),
});
const cmd = (command: string, target = '', value = '', targets: string[][] = []) => ({
  command,
  target,
  value,
  targets,
});

describe('Selenium IDE projects', () => {
  it("reads the project's example suites: one step per test, one action per command, a plan save-config takes", () => {
    const read = readSeleniumIdeProject(fixture('selenium-ide/sides/execute-script.side'));
    expect(read.format).toBe('selenium-ide');
    expect(read.counts).toEqual({ tests: 2, actions: 8, skipped: 0 });
    expect(read.plan.apis.map((a) => a.name)).toEqual(['execute script', 'execute async script']);
    expect(read.plan.apis[0]?.actions).toEqual([
      {
        kind: 'go',
        source: { action: 'open /value.html', path: "Selenium IDE test 'execute script', command 1" },
        url: 'http://localhost:8080/value.html',
      },
      {
        kind: 'executeScript',
        source: {
          action: 'executeScript return "sync" sync',
          path: "Selenium IDE test 'execute script', command 2",
        },
        script: 'return "sync"',
        async: false,
        variable: 'sync',
      },
      {
        kind: 'type',
        source: { action: 'type id=v ${sync}', path: "Selenium IDE test 'execute script', command 3" },
        locators: [{ by: 'id', value: 'v' }],
        text: '{{sync}}',
      },
      {
        kind: 'assertValue',
        source: { action: 'assertValue id=v sync', path: "Selenium IDE test 'execute script', command 4" },
        locators: [{ by: 'id', value: 'v' }],
        expected: 'sync',
      },
    ]);
    const plan = FunctionalPlanSchema.safeParse(read.plan);
    expect(plan.success).toBe(true);
    for (const file of ['check-examples', 'select-examples', 'text-comparison']) {
      const other = readSeleniumIdeProject(fixture(`selenium-ide/sides/${file}.side`));
      expect(FunctionalPlanSchema.safeParse(other.plan).success, file).toBe(true);
    }
  });

  it('maps verify to a soft assertion, locators and their recorded fallbacks, variables, keys and options', () => {
    const read = readSeleniumIdeProject(
      side([
        cmd('open', '/login'),
        cmd('//click', 'id=old'),
        cmd('click', 'css=#go', '', [
          ['css=#go', 'css:finder'],
          ['xpath=//button[@id="go"]', 'xpath:attributes'],
          ['linkText=Go', 'linkText'],
        ]),
        cmd('verifyText', 'id=out', 'Hello ${name}'),
        cmd('sendKeys', 'name=q', 'shoes${KEY_ENTER}'),
        cmd('select', 'id=size', 'value=L'),
        cmd('addSelection', 'id=colours', 'index=2'),
        cmd('clickAt', '//a[1]', '4,5'),
        cmd('waitForElementVisible', 'id=done', '3000'),
        cmd('store', 'Ada', 'name'),
        cmd('assertElementNotPresent', 'partialLinkText=Sign'),
      ]),
    );
    const actions = read.plan.apis[0]!.actions;
    expect(read.counts.skipped).toBe(1);
    expect(actions.map((a) => a.kind)).toEqual([
      'go',
      'click',
      'assertText',
      'keys',
      'keys',
      'select',
      'select',
      'click',
      'waitFor',
      'storeString',
      'assertNotPresent',
    ]);
    expect(actions[0]).toMatchObject({ url: 'https://shop.test/login' });
    expect(actions[1]).toMatchObject({
      locators: [
        { by: 'css', value: '#go' },
        { by: 'xpath', value: '//button[@id="go"]' },
        { by: 'linktext', value: 'Go' },
      ],
      source: { path: "Selenium IDE test 'Sign in', command 3" },
    });
    expect(actions[2]).toMatchObject({ soft: true, expected: 'Hello {{name}}' });
    expect(actions.slice(3, 5)).toMatchObject([{ keys: 'shoes' }, { keys: 'KEY_ENTER' }]);
    expect(actions[5]).toMatchObject({ option: 'L', by: 'value', mode: 'set' });
    expect(actions[6]).toMatchObject({ option: '2', by: 'index', mode: 'add' });
    expect(actions[7]).toMatchObject({
      locators: [{ by: 'xpath', value: '//a[1]' }],
      offset: { x: 4, y: 5 },
    });
    expect(actions[8]).toMatchObject({ state: 'visible', timeout_ms: 3000 });
    expect(actions[9]).toMatchObject({ value: 'Ada', variable: 'name' });
    expect(actions[10]).toMatchObject({ locators: [{ by: 'partiallinktext', value: 'Sign' }] });
  });

  it('refuses every command it cannot run, by name, test and position, before anything runs', () => {
    const attempt = () =>
      readSeleniumIdeProject(
        side([
          cmd('open', '/'),
          cmd('if', '${n} > 1'),
          cmd('click', 'ui=button'),
          cmd('storeWindowHandle', 'root'),
        ]),
      );
    expect(attempt).toThrow(ImportError);
    expect(attempt).toThrow(
      /Selenium IDE test 'Sign in', command 2 `if \$\{n\} > 1`: "if" is not a Selenium IDE command AnybodyQA runs yet/,
    );
    expect(attempt).toThrow(/command 3 `click ui=button`: "ui=" is not a locator Selenium IDE writes/);
    expect(attempt).toThrow(/command 4 `storeWindowHandle root`/);
  });

  it('tells a project from other JSON, and refuses a project without tests', () => {
    expect(isSeleniumIdeProject(JSON.parse(side([]).text))).toBe(true);
    expect(isSeleniumIdeProject({ title: 'x', steps: [] })).toBe(false);
    expect(() => readSeleniumIdeProject({ name: 'x.side', text: '{"name":"x","tests":[]}' })).toThrow(
      'x.side: this is not a Selenium IDE project',
    );
  });
});
