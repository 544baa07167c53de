import { describe, expect, it } from 'vitest';
import { TaurusScriptError } from '../taurus-model';
import { readSeleniumScript } from './read-selenium';
import { DEFAULT_WAIT_MS } from './selenium-actions';
import { SeleniumScriptError, type SeleniumStep } from './selenium-model';

/** A selenium script whose one request holds the given actions (each line already indented by 6). */
function script(actions: string, extra = ''): string {
  return [
    'execution:',
    '- executor: selenium',
    '  scenario: ui',
    '  iterations: 3',
    'scenarios:',
    '  ui:',
    extra,
    '    requests:',
    '    - label: form',
    '      url: http://127.0.0.1:5370/form',
    '      actions:',
    actions,
  ].join('\n');
}

function steps(actions: string, extra = ''): SeleniumStep[] {
  const page = readSeleniumScript(script(actions, extra)).pages[0];
  return (page?.actions ?? []).map((step) => {
    const { source, ...rest } = step;
    expect(source.line).toBeGreaterThan(0);
    return rest as SeleniumStep;
  });
}

describe('readSeleniumScript: each action family in the one-line and the dict form', () => {
  it('reads go, click, doubleClick and submit with every locator kind', () => {
    expect(
      steps(
        [
          '      - go(http://127.0.0.1:5370/next)',
          '      - clickByID(submit)',
          '      - doubleClickByName(q)',
          '      - clickByCSS(body input.btn)',
          "      - clickByXPath(//input[@type='submit'])",
          '      - clickByLinkText(Sign in)',
          '      - submitByName(form1)',
          '      - type: go',
          '        param: http://127.0.0.1:5370/other',
          '      - type: doubleClick',
          '        locators:',
          '        - id: a',
          '      - type: submit',
          '        locators:',
          '        - xpath: //form',
        ].join('\n'),
      ),
    ).toEqual([
      { kind: 'go', url: 'http://127.0.0.1:5370/next' },
      { kind: 'click', locators: [{ by: 'id', value: 'submit' }] },
      { kind: 'doubleClick', locators: [{ by: 'name', value: 'q' }] },
      { kind: 'click', locators: [{ by: 'css', value: 'body input.btn' }] },
      { kind: 'click', locators: [{ by: 'xpath', value: "//input[@type='submit']" }] },
      { kind: 'click', locators: [{ by: 'linktext', value: 'Sign in' }] },
      { kind: 'submit', locators: [{ by: 'name', value: 'form1' }] },
      { kind: 'go', url: 'http://127.0.0.1:5370/other' },
      { kind: 'doubleClick', locators: [{ by: 'id', value: 'a' }] },
      { kind: 'submit', locators: [{ by: 'xpath', value: '//form' }] },
    ]);
  });

  it('reads type, keys and select with their text, in both forms', () => {
    expect(
      steps(
        [
          '      - typeByID(name): Ada Lovelace',
          '      - keysByName(q): KEY_ENTER',
          '      - selectByCSS(select.city): Paris',
          '      - type: type',
          '        locators:',
          '        - css: "#email"',
          '        param: ada@example.com',
          '      - type: keys',
          '        locators:',
          '        - id: q',
          '        param: KEY_TAB',
          '      - type: select',
          '        locators:',
          '        - name: country',
          '        param: France',
        ].join('\n'),
      ),
    ).toEqual([
      { kind: 'type', locators: [{ by: 'id', value: 'name' }], text: 'Ada Lovelace' },
      { kind: 'keys', locators: [{ by: 'name', value: 'q' }], keys: 'KEY_ENTER' },
      { kind: 'select', locators: [{ by: 'css', value: 'select.city' }], option: 'Paris' },
      { kind: 'type', locators: [{ by: 'css', value: '#email' }], text: 'ada@example.com' },
      { kind: 'keys', locators: [{ by: 'id', value: 'q' }], keys: 'KEY_TAB' },
      { kind: 'select', locators: [{ by: 'name', value: 'country' }], option: 'France' },
    ]);
  });

  it('reads waitFor with its states and time-out, and the older waitBy form', () => {
    expect(
      steps(
        [
          '      - waitForByID(done, Clickable)',
          '      - waitForByCSS(.spinner, NotVisible): 5',
          "      - waitForByXPath(//a[contains(@class, 'x')], present): 1m",
          '      - waitByXPath(//h1)',
          '      - waitByCSS(.hero h1): visible',
          '      - type: waitFor',
          '        locators:',
          '        - id: result',
          '        param: not_present',
          '        value: 1m30s',
        ].join('\n'),
      ),
    ).toEqual([
      {
        kind: 'waitFor',
        locators: [{ by: 'id', value: 'done' }],
        state: 'clickable',
        timeout_ms: DEFAULT_WAIT_MS,
      },
      {
        kind: 'waitFor',
        locators: [{ by: 'css', value: '.spinner' }],
        state: 'notvisible',
        timeout_ms: 5000,
      },
      {
        kind: 'waitFor',
        locators: [{ by: 'xpath', value: "//a[contains(@class, 'x')]" }],
        state: 'present',
        timeout_ms: 60_000,
      },
      {
        kind: 'waitFor',
        locators: [{ by: 'xpath', value: '//h1' }],
        state: 'present',
        timeout_ms: DEFAULT_WAIT_MS,
      },
      {
        kind: 'waitFor',
        locators: [{ by: 'css', value: '.hero h1' }],
        state: 'visible',
        timeout_ms: DEFAULT_WAIT_MS,
      },
      { kind: 'waitFor', locators: [{ by: 'id', value: 'result' }], state: 'notpresent', timeout_ms: 90_000 },
    ]);
  });

  it('reads assertText, assertValue, assertTitle and the request assert', () => {
    const read = steps(
      [
        '      - assertTextByCSS(h1): Welcome',
        '      - assertValueByID(email): ada@example.com',
        '      - assertTitle(Home page)',
        '      - type: assertText',
        '        locators:',
        '        - xpath: //h2',
        '        param: Results',
        '      - type: assertTitle',
        '        param: Done',
        '      assert:',
        '      - Thank you',
        '      - contains: [err.r]',
        '        regexp: false',
        '        not: true',
      ].join('\n'),
    );
    expect(read).toEqual([
      { kind: 'assertText', locators: [{ by: 'css', value: 'h1' }], expected: 'Welcome' },
      { kind: 'assertValue', locators: [{ by: 'id', value: 'email' }], expected: 'ada@example.com' },
      { kind: 'assertTitle', expected: 'Home page' },
      { kind: 'assertText', locators: [{ by: 'xpath', value: '//h2' }], expected: 'Results' },
      { kind: 'assertTitle', expected: 'Done' },
      { kind: 'assertPage', text: 'Thank you', regexp: true, not: false },
      { kind: 'assertPage', text: 'err.r', regexp: false, not: true },
    ]);
  });

  it('reads a name without brackets as the bracket form: assertTitle: Home is assertTitle(Home)', () => {
    expect(
      steps(
        [
          '      - go: http://127.0.0.1:5370/next',
          '      - assertTitle: Bundle page',
          '      - pauseFor: 2s',
          '      - storeTitle: heading',
          '      - screenshot: after.png',
        ].join('\n'),
      ),
    ).toEqual([
      { kind: 'go', url: 'http://127.0.0.1:5370/next' },
      { kind: 'assertTitle', expected: 'Bundle page' },
      { kind: 'pauseFor', ms: 2000 },
      { kind: 'storeTitle', variable: 'heading' },
      { kind: 'screenshot', file: 'after.png' },
    ]);
    const refused = (() => {
      try {
        steps('      - click: submit');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(SeleniumScriptError);
    expect((refused as SeleniumScriptError).unknown[0]?.message).toMatch(/needs a locator: write clickByID/);
  });

  it('reads store* into variables that later steps use as {{name}}, with the scenario variables', () => {
    const result = readSeleniumScript(
      script(
        [
          '      - storeTitle(): title',
          '      - storeTextByID(greeting): greeting',
          '      - storeValueByName(email): ${email}',
          '      - storeString(Ada): who',
          '      - typeByID(name): ${who} ${surname}',
          '      - assertTitle(${title})',
          '      - type: storeTitle',
          '        param: title2',
          '      - type: storeString',
          '        param: surname',
          '        value: Lovelace',
          '      - go(${base}/done)',
        ].join('\n'),
        '    variables:\n      base: http://127.0.0.1:5370',
      ),
    );
    expect(result.variables).toEqual({ base: 'http://127.0.0.1:5370' });
    expect(result.pages[0]?.actions.map(({ source: _source, ...step }) => step)).toEqual([
      { kind: 'storeTitle', variable: 'title' },
      { kind: 'storeText', locators: [{ by: 'id', value: 'greeting' }], variable: 'greeting' },
      { kind: 'storeValue', locators: [{ by: 'name', value: 'email' }], variable: 'email' },
      { kind: 'storeString', value: 'Ada', variable: 'who' },
      { kind: 'type', locators: [{ by: 'id', value: 'name' }], text: '{{who}} {{surname}}' },
      { kind: 'assertTitle', expected: '{{title}}' },
      { kind: 'storeTitle', variable: 'title2' },
      { kind: 'storeString', value: 'Lovelace', variable: 'surname' },
      { kind: 'go', url: '{{base}}/done' },
    ]);
  });

  it('reads pauseFor and screenshot in both forms', () => {
    expect(
      steps(
        [
          '      - pauseFor(1s500ms)',
          '      - screenshot(after-login.png)',
          '      - screenshot()',
          '      - type: pauseFor',
          '        param: 2s',
          '      - type: screenshot',
        ].join('\n'),
      ),
    ).toEqual([
      { kind: 'pauseFor', ms: 1500 },
      { kind: 'screenshot', file: 'after-login.png' },
      { kind: 'screenshot', file: null },
      { kind: 'pauseFor', ms: 2000 },
      { kind: 'screenshot', file: null },
    ]);
  });

  it('keeps dict locators in order as fallbacks', () => {
    expect(
      steps(
        [
          '      - type: click',
          '        locators:',
          '        - id: missing',
          '        - css: .b',
          '        - xpath: //button[1]',
          '        - linktext: Go',
        ].join('\n'),
      ),
    ).toEqual([
      {
        kind: 'click',
        locators: [
          { by: 'id', value: 'missing' },
          { by: 'css', value: '.b' },
          { by: 'xpath', value: '//button[1]' },
          { by: 'linktext', value: 'Go' },
        ],
      },
    ]);
  });
});

describe('readSeleniumScript refuses what it cannot run, before anything runs', () => {
  it('lists every unknown action by name and YAML line', () => {
    const text = script(
      [
        '      - clickByID(ok)',
        '      - mouseOverByID(menu)',
        '      - type: dragAndDrop',
        '        locators:',
        '        - id: a',
        '      - clickByShadow(c-basic)',
        '      - waitForByID(x, sideways)',
        '      - waitForByID(y)',
        '      - rawCode: print(1)',
        '      - loop: i',
        '        start: 1',
        '        end: 2',
        '        do: [clickByID(a)]',
      ].join('\n'),
    );
    let error: unknown;
    try {
      readSeleniumScript(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SeleniumScriptError);
    const refusal = error as SeleniumScriptError;
    const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(refusal.unknown.map((u) => [u.action, u.line])).toEqual([
      ['mouseOverByID', lineOf('mouseOverByID')],
      ['dragAndDrop', lineOf('dragAndDrop')],
      ['clickByShadow', lineOf('clickByShadow')],
      ['waitForByID', lineOf('sideways')],
      ['waitForByID', lineOf('waitForByID(y)')],
      ['rawCode', lineOf('rawCode')],
      ['loop', lineOf('loop: i')],
    ]);
    expect(refusal.unknown[4]?.message).toContain('needs a condition');
    expect(refusal.unknown[3]?.message).toContain('sideways');
    expect(refusal.message).toContain(`mouseOverByID (line ${lineOf('mouseOverByID')})`);
    expect(refusal.message).toContain(`dragAndDrop (line ${lineOf('dragAndDrop')})`);
    expect(refusal.line).toBe(lineOf('mouseOverByID'));
  });

  it('refuses an action without the locator it needs, and a script with no selenium execution', () => {
    expect(() => readSeleniumScript(script('      - click(ok)'))).toThrow(/click \(line 12\)/);
    expect(() =>
      readSeleniumScript(
        'execution:\n- executor: jmeter\n  scenario: s\nscenarios:\n  s:\n    requests: [http://a]\n',
      ),
    ).toThrow(TaurusScriptError);
  });

  it('reads apiritif in test-mode selenium, and relative URLs under default-address', () => {
    const result = readSeleniumScript(
      [
        'execution:',
        '- executor: apiritif',
        '  test-mode: selenium',
        '  scenario:',
        '    default-address: 127.0.0.1:5370/app/',
        '    requests:',
        '    - url: /login',
        '      actions: [clickByID(go)]',
        '    - http://other.test/x',
        '    - next',
      ].join('\n'),
    );
    expect(result.test_name).toBe('Scenario of execution[0]');
    expect(result.warnings).toEqual([]);
    expect(result.pages.map((p) => [p.url, p.source.line])).toEqual([
      ['http://127.0.0.1:5370/app/login', 7],
      ['http://other.test/x', 9],
      ['http://127.0.0.1:5370/app/next', 10],
    ]);
  });

  it('warns, with lines, for settings a UI test does not use, and bounds iterations to 1–10', () => {
    const result = readSeleniumScript(
      script('      - clickByID(ok)', '    browser: Firefox').replace('iterations: 3', 'iterations: 50'),
    );
    expect(result.iterations).toBe(10);
    expect(result.test_name).toBe('ui');
    expect(result.warnings.map((w) => [w.path, w.line])).toEqual([
      ['scenarios.ui.browser', 7],
      ['execution[0].iterations', 4],
    ]);
  });
});
