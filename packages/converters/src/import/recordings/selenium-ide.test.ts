import { describe, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { recordingFixture } from '../../../test/fixtures';
import { ImportError } from '../import-model';
import { isSeleniumIdeProject, readSeleniumIdeProject } from './selenium-ide';

/*
 * Selenium IDE projects as UI plans (docs/adr/0030-recorded-ui-tests.md §2): the project's own example
 * suites (packages/ui-runner/test-fixtures/selenium-ide/sides) and hand-written projects for every mapping and refusal.
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
    const read = readSeleniumIdeProject(recordingFixture('selenium-ide/sides/execute-script.side'));
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
      const other = readSeleniumIdeProject(recordingFixture(`selenium-ide/sides/${file}.side`));
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
          cmd('break'),
          cmd('click', 'ui=button'),
          cmd('setSpeed', '500'),
          cmd('debugger'),
          cmd('myPluginCommand', 'x'),
        ]),
      );
    expect(attempt).toThrow(ImportError);
    expect(attempt).toThrow(
      /Selenium IDE test 'Sign in', command 2 `break`: "break" is not a Selenium IDE command \(a plugin such as SelBlocks adds it\)/,
    );
    expect(attempt).toThrow(/command 3 `click ui=button`: "ui=" is not a locator Selenium IDE writes/);
    expect(attempt).toThrow(/command 4 `setSpeed 500`: it sets how fast Selenium IDE plays/);
    expect(attempt).toThrow(/command 5 `debugger`: it stops Selenium IDE for a person to look/);
    expect(attempt).toThrow(
      /command 6 `myPluginCommand x`: "myPluginCommand" is not a Selenium IDE command AnybodyQA runs \(it may be a plugin's\): remove it/,
    );
    // A refusal says what to do, in the user's words, not where the project's own documents are.
    expect(attempt).not.toThrow(/docs\/|ADR|§/);
  });

  it('keeps control flow as flat actions, with conditions, counts, limits and the forEach iterator', () => {
    const read = readSeleniumIdeProject(
      side([
        cmd('executeScript', 'return [1, 2]', 'list'),
        cmd('times', '${n}', '5'),
        cmd('if', '${x} > 1'),
        cmd('echo', 'big'),
        cmd('elseIf', '${x} == 1'),
        cmd('echo', 'one'),
        cmd('else'),
        cmd('end'),
        cmd('end'),
        cmd('do'),
        cmd('repeatIf', 'false'),
        cmd('while', 'true', '3'),
        cmd('end'),
        cmd('forEach', 'list', 'item'),
        cmd('end'),
      ]),
    );
    const actions = read.plan.apis[0]!.actions;
    expect(actions.slice(1).map((a) => (a.kind === 'control' ? a.flow : a.kind))).toEqual([
      'times',
      'if',
      'echo',
      'elseIf',
      'echo',
      'else',
      'end',
      'end',
      'do',
      'repeatIf',
      'while',
      'end',
      'forEach',
      'end',
    ]);
    expect(actions[1]).toMatchObject({ kind: 'control', expression: '{{n}}', limit: 5 });
    expect(actions[2]).toMatchObject({ expression: '{{x}} > 1' });
    expect(actions[2]).not.toHaveProperty('limit');
    expect(actions[11]).toMatchObject({ flow: 'while', expression: 'true', limit: 3 });
    expect(actions[13]).toMatchObject({ flow: 'forEach', expression: 'list', variable: 'item' });
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it.each([
    [[cmd('if', 'true'), cmd('echo', 'x')], 'command 1 `if true`: Incomplete block at if'],
    [[cmd('echo', 'x'), cmd('end')], 'command 2 `end`: Use of end without an opening keyword'],
    [
      [cmd('while', 'true'), cmd('else'), cmd('end')],
      'command 2 `else`: An else used outside of an if block',
    ],
    [[cmd('repeatIf', 'true')], 'command 1 `repeatIf true`: A repeat if used without a do block'],
    [
      [cmd('if', 'true'), cmd('else'), cmd('elseIf', 'false'), cmd('end')],
      'command 3 `elseIf false`: Incorrect command order of else if / else',
    ],
  ])('refuses unbalanced blocks as Selenium IDE does: %#', (commands, message) => {
    expect(() => readSeleniumIdeProject(side(commands))).toThrow(`Selenium IDE test 'Sign in', ${message}`);
  });

  it('expands run into the actions of the test it names, refusing recursion and depth past 10', () => {
    const project = (tests: [string, unknown[]][]) => ({
      name: 'p.side',
      text: JSON.stringify({
        name: 'P',
        url: 'https://shop.test',
        tests: tests.map(([name, commands], i) => ({ id: `t${i}`, name, commands })),
      }),
    });
    const read = readSeleniumIdeProject(
      project([
        ['Log in', [cmd('open', '/login'), cmd('type', 'id=user', 'ada')]],
        ['Buy', [cmd('run', 'Log in'), cmd('click', 'id=buy')]],
      ]),
    );
    expect(read.plan.apis[1]!.actions.map((a) => [a.kind, a.source.path])).toEqual([
      ['go', "Selenium IDE test 'Buy', command 1, run test 'Log in', command 1"],
      ['type', "Selenium IDE test 'Buy', command 1, run test 'Log in', command 2"],
      ['click', "Selenium IDE test 'Buy', command 2"],
    ]);
    expect(() =>
      readSeleniumIdeProject(
        project([
          ['A', [cmd('run', 'B')]],
          ['B', [cmd('echo', 'b'), cmd('run', 'A')]],
        ]),
      ),
    ).toThrow(
      "Selenium IDE test 'A', command 1, run test 'B', command 2 `run A`: it runs a test that is already running ('A' → 'B' → 'A'): a test may not run itself",
    );
    expect(() => readSeleniumIdeProject(project([['A', [cmd('run', 'Nope')]]]))).toThrow(
      "command 1 `run Nope`: the project has no test named 'Nope'",
    );
    const chain = Array.from({ length: 12 }, (_v, i): [string, unknown[]] => [
      `T${i}`,
      i === 11 ? [cmd('echo', 'deep')] : [cmd('run', `T${i + 1}`)],
    ]);
    expect(() => readSeleniumIdeProject(project(chain))).toThrow('tests run other tests at most 10 deep');
    // Ten deep is allowed.
    expect(readSeleniumIdeProject(project(chain.slice(2))).plan.apis[0]!.actions).toHaveLength(1);
  });

  it('maps dialogs, mouse, drag and drop and the store and assert commands', () => {
    const read = readSeleniumIdeProject(
      side([
        cmd('chooseCancelOnNextConfirmation'),
        cmd('answerOnNextPrompt', 'Ada'),
        cmd('assertConfirmation', 'Sure?'),
        cmd('verifyAlert', 'Hi ${name}'),
        cmd('webdriverChooseOkOnVisibleConfirmation'),
        cmd('mouseDownAt', 'id=a', '10,20'),
        cmd('mouseOut', 'id=a'),
        cmd('dragAndDropToObject', 'id=p1', 'id=target'),
        cmd('storeAttribute', 'css=a.x@href', 'link'),
        cmd('storeXpathCount', '//div', 'divs'),
        cmd('storeJson', '[1,2]', 'list'),
        cmd('assert', 'divs', '6'),
        cmd('assertNotValue', 'id=v', 'x'),
        cmd('editContent', 'id=c', 'hello'),
      ]),
    );
    expect(read.plan.apis[0]!.actions.map(({ source: _s, ...a }) => a)).toEqual([
      { kind: 'dialog', dialog: 'confirm', act: 'dismissNext', text: '' },
      { kind: 'dialog', dialog: 'prompt', act: 'answerNext', text: 'Ada' },
      { kind: 'dialog', dialog: 'confirm', act: 'assert', text: 'Sure?' },
      { kind: 'dialog', soft: true, dialog: 'alert', act: 'assert', text: 'Hi {{name}}' },
      { kind: 'dialog', dialog: 'confirm', act: 'accept', text: '' },
      { kind: 'mouse', locators: [{ by: 'id', value: 'a' }], event: 'down', offset: { x: 10, y: 20 } },
      { kind: 'mouse', locators: [{ by: 'id', value: 'a' }], event: 'out' },
      {
        kind: 'dragAndDrop',
        locators: [{ by: 'id', value: 'p1' }],
        to: [{ by: 'id', value: 'target' }],
      },
      {
        kind: 'storeAttribute',
        locators: [{ by: 'css', value: 'a.x' }],
        attribute: 'href',
        variable: 'link',
      },
      { kind: 'storeCount', locators: [{ by: 'xpath', value: '//div' }], variable: 'divs' },
      { kind: 'storeString', value: '[1,2]', variable: 'list' },
      { kind: 'assertVariable', variable: 'divs', expected: '6' },
      { kind: 'assertValue', locators: [{ by: 'id', value: 'v' }], expected: 'x', not: true },
      { kind: 'editContent', locators: [{ by: 'id', value: 'c' }], text: 'hello' },
    ]);
    expect(() => readSeleniumIdeProject(side([cmd('storeJson', '{nope', 'x')]))).toThrow(
      'command 1 `storeJson {nope x`: "{nope" is not JSON',
    );
  });

  it('maps frames and windows; a command that opens a window is followed by the wait for it', () => {
    const read = readSeleniumIdeProject(
      side([
        cmd('selectFrame', 'index=1'),
        cmd('selectFrame', 'index=0\\1'),
        cmd('selectFrame', 'index=..\\2'),
        cmd('selectFrame', 'relative=parent'),
        cmd('selectFrame', 'relative=top'),
        cmd('selectFrame', 'id=f'),
        cmd('storeWindowHandle', 'root'),
        {
          ...cmd('click', 'linkText=More'),
          opensWindow: true,
          windowHandleName: 'win9',
          windowTimeout: 3000,
        },
        cmd('selectWindow', 'handle=${win9}'),
        cmd('close'),
      ]),
    );
    expect(read.plan.apis[0]!.actions.map(({ source: _s, ...a }) => a)).toEqual([
      { kind: 'selectFrame', frame: 'index', index: 1 },
      { kind: 'selectFrame', frame: 'path', path: [0, 1] },
      { kind: 'selectFrame', frame: 'path', path: ['parent', 2] },
      { kind: 'selectFrame', frame: 'parent' },
      { kind: 'selectFrame', frame: 'top' },
      { kind: 'selectFrame', frame: 'element', locators: [{ by: 'id', value: 'f' }] },
      { kind: 'storeWindowHandle', variable: 'root' },
      { kind: 'click', locators: [{ by: 'linktext', value: 'More' }] },
      { kind: 'waitForWindow', variable: 'win9', timeout_ms: 3000 },
      { kind: 'selectWindow', handle: 'handle={{win9}}' },
      { kind: 'closeWindow' },
    ]);
    expect(() => readSeleniumIdeProject(side([cmd('selectWindow', 'win_ser_1')]))).toThrow(
      'command 1 `selectWindow win_ser_1`: "win_ser_1" is not a window handle',
    );
    // Selenium IDE's index path takes indexes and `..` only (side-runtime's doSelectFrame).
    expect(() => readSeleniumIdeProject(side([cmd('selectFrame', 'index=0\\x')]))).toThrow(
      'command 1 `selectFrame index=0\\x`: "index=0\\x" is not a frame index: write index=N',
    );
  });

  it('imports a 500-command project with nested control flow and runs in under a second (issue #28)', () => {
    const block = [
      cmd('times', '3'),
      cmd('if', '${n} > 1'),
      cmd('click', 'id=a'),
      cmd('elseIf', '${n} == 1'),
      cmd('type', 'id=b', 'x'),
      cmd('else'),
      cmd('assertText', 'id=c', 'y'),
      cmd('end'),
      cmd('run', 'Helper'),
      cmd('end'),
    ];
    const commands = Array.from({ length: 50 }, () => block).flat();
    const text = JSON.stringify({
      name: 'Big',
      url: 'https://shop.test',
      tests: [
        { id: 'h', name: 'Helper', commands: [cmd('echo', 'helped')] },
        { id: 'm', name: 'Main', commands },
      ],
    });
    const started = performance.now();
    const read = readSeleniumIdeProject({ name: 'big.side', text });
    const ms = performance.now() - started;
    expect(commands).toHaveLength(500);
    expect(read.plan.apis[1]!.actions).toHaveLength(500);
    expect(ms).toBeLessThan(1_000);
  });

  it('tells a project from other JSON, and refuses a project without tests', () => {
    expect(isSeleniumIdeProject(JSON.parse(side([]).text))).toBe(true);
    expect(isSeleniumIdeProject({ title: 'x', steps: [] })).toBe(false);
    expect(() => readSeleniumIdeProject({ name: 'x.side', text: '{"name":"x","tests":[]}' })).toThrow(
      'x.side: this is not a Selenium IDE project',
    );
  });
});
