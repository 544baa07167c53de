import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR as FIXTURES } from '../../../../test/fixtures';
import { readSeleniumScript } from './read-selenium';

/**
 * The Taurus examples of test-fixtures with Selenium actions read as pages with the counts their README rows give
 * (counted independently of this reader): "selenium action steps" is the number of requests that hold
 * actions, "requests N [GET:N]" the number that open a URL. The action totals are counted in the files.
 */

const ROOT = join(FIXTURES, 'taurus');

const EXPECTED: Record<string, { readme: string[]; withActions: number; withUrl: number; actions: number }> =
  {
    // 1 wait; 3 clicks and a wait; 1 click; 7 keys, a click and a wait, plus the one assert.
    'examples/blazemeter-demo/selenium-dsl.yml': {
      readme: ['[selenium:1]', 'selenium action steps 4', 'requests 1 [GET:1]', 'assert 1'],
      withActions: 4,
      withUrl: 1,
      actions: 1 + 4 + 1 + 9 + 1,
    },
    // The jmeter execution's request is not a browser step; the selenium scenario is selenium-dsl's.
    'examples/blazemeter-demo/multi-location-multi-script.yml': {
      readme: ['[jmeter:1, selenium:1]', 'selenium action steps 4', 'requests 2 [GET:2]'],
      withActions: 4,
      withUrl: 1,
      actions: 1 + 4 + 1 + 9 + 1,
    },
    'examples/selenium/sel-requests.yml': {
      readme: ['[selenium:1]', 'selenium action steps 4', 'requests 1 [GET:1]'],
      withActions: 4,
      withUrl: 1,
      actions: 1 + 4 + 1 + 9 + 1,
    },
    'examples/selenium/sel-grid.yml': {
      readme: ['[selenium:1]', 'selenium action steps 1', 'requests 1 [GET:1]'],
      withActions: 1,
      withUrl: 1,
      actions: 1,
    },
    'examples/selenium/har-screenshots.yml': {
      readme: ['[selenium:1]', 'requests 1 [GET:1]'],
      withActions: 0,
      withUrl: 1,
      actions: 0,
    },
  };

function readmeRow(file: string): string {
  return (
    readFileSync(join(FIXTURES, 'README.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`| taurus/${file} |`)) ?? ''
  );
}

describe('the Taurus examples with Selenium actions', () => {
  it.each(Object.keys(EXPECTED))('%s reads as pages with its README counts', (file) => {
    const expected = EXPECTED[file];
    if (expected === undefined) return;
    const row = readmeRow(file);
    for (const fact of expected.readme) expect(row, `README row of ${file}`).toContain(fact);
    const result = readSeleniumScript(readFileSync(join(ROOT, file), 'utf8'));
    expect(result.pages.filter((p) => p.actions.length > 0)).toHaveLength(expected.withActions);
    expect(result.pages.filter((p) => p.url !== null)).toHaveLength(expected.withUrl);
    expect(result.pages.flatMap((p) => p.actions)).toHaveLength(expected.actions);
    expect(result.iterations).toBeGreaterThanOrEqual(1);
    expect(result.iterations).toBeLessThanOrEqual(10);
    for (const page of result.pages) {
      expect(page.source.line).toBeGreaterThan(0);
      for (const step of page.actions) expect(step.source.line, step.source.path).toBeGreaterThan(0);
    }
    for (const warning of result.warnings) expect(warning.line, warning.path).toBeGreaterThan(0);
  });

  it('selenium-dsl.yml reads its form page as typed steps, ending with the page assert', () => {
    const result = readSeleniumScript(
      readFileSync(join(ROOT, 'examples/blazemeter-demo/selenium-dsl.yml'), 'utf8'),
    );
    expect(result.test_name).toBe('simple');
    expect(result.iterations).toBe(10);
    const form = result.pages[3];
    expect(form?.name).toBe('fill form');
    expect(form?.actions[0]).toMatchObject({
      kind: 'keys',
      locators: [{ by: 'id', value: 'inputName' }],
      keys: 'FirstName LastName',
      source: { line: 32 },
    });
    expect(form?.actions[4]).toMatchObject({ kind: 'keys', keys: '12345' });
    expect(form?.actions[8]).toMatchObject({ kind: 'waitFor', state: 'visible' });
    expect(form?.actions[9]).toMatchObject({
      kind: 'assertPage',
      text: 'Thank you for your purchase today!',
    });
  });
});
