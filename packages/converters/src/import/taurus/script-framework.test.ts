import { describe, expect, it } from 'vitest';
import { readTaurusScript } from './read-taurus';
import { taurusScriptFramework } from './script-framework';

const scenario = [
  'scenarios:',
  '  form:',
  '    requests:',
  '    - url: http://shop.test/form',
  '      actions:',
  '      - clickByID(go)',
  '  api:',
  '    requests:',
  '    - url: http://shop.test/items',
];
const script = (...execution: string[]) => ['execution:', ...execution, ...scenario].join('\n');

describe('taurusScriptFramework (docs/reference/02-running.md §3 "Selenium-style scripts")', () => {
  it('is selenium when every execution runs in a browser, as the UI runner reads them', () => {
    expect(taurusScriptFramework(script('- executor: selenium', '  scenario: form'))).toBe('selenium');
    expect(
      taurusScriptFramework(script('- executor: apiritif', '  test-mode: selenium', '  scenario: form')),
    ).toBe('selenium');
    expect(
      taurusScriptFramework(
        ['settings:', '  default-executor: selenium', 'execution:', '- scenario: form', ...scenario].join(
          '\n',
        ),
      ),
    ).toBe('selenium');
  });

  it('is taurus for HTTP executions, a mix, no executions, and text that is no script', () => {
    expect(taurusScriptFramework(script('- scenario: api'))).toBe('taurus');
    expect(taurusScriptFramework(script('- executor: apiritif', '  scenario: api'))).toBe('taurus');
    expect(
      taurusScriptFramework(
        script('- executor: selenium', '  scenario: form', '- executor: jmeter', '  scenario: api'),
      ),
    ).toBe('taurus');
    expect(taurusScriptFramework(scenario.join('\n'))).toBe('taurus');
    expect(taurusScriptFramework('execution: [')).toBe('taurus');
    expect(taurusScriptFramework('')).toBe('taurus');
  });

  it("has the API reader say a browser execution is a UI test's, not that nothing can run it", () => {
    const read = readTaurusScript(
      script('- executor: selenium', '  scenario: form', '- executor: jmeter', '  scenario: api'),
    );
    expect(read.apis.map((a) => a.url)).toEqual(['http://shop.test/items']);
    expect(read.warnings).toContainEqual(
      expect.objectContaining({
        path: 'execution[0].executor',
        message:
          'This execution runs selenium in a browser, which a UI test does (a script whose every execution runs in a browser is read as one); an API test skips it',
      }),
    );
  });
});
