import { describe, expect, it } from 'vitest';
import { SeleniumScriptError } from '@aqa/converters';
import { readKeys } from './keys';
import { scriptPlan, seleniumScript, uiPlan } from './test-helpers';
import { uiPagesOf, writtenUrls } from './ui-pages';
import { elementSelector } from './ui-judge';

/* What a UI plan will open, read before anything runs (docs/design.md §9 "UI tests"). */

describe('uiPagesOf', () => {
  it("lists a UI URL plan's pages with their enabled checks", () => {
    const pages = uiPagesOf(
      uiPlan([
        {
          name: 'Home',
          url: 'http://127.0.0.1:5241/',
          validations: [
            { type: 'page_title', expected_value: 'Home' },
            { type: 'contains_text', expected_value: 'off', enabled: false },
          ],
        },
      ]),
    );
    expect(pages).toMatchObject([
      { name: 'Home', method: 'GET', url: 'http://127.0.0.1:5241/', actions: [] },
    ]);
    expect(pages[0]?.validations.map((v) => v.type)).toEqual(['page_title']);
  });

  it("reads a script's steps, and lists the URLs it writes out for the guard's preflight", () => {
    const yaml = seleniumScript('http://127.0.0.1:5241', [
      '    - label: Start',
      '      url: /form',
      '      actions:',
      '      - go(http://127.0.0.1:5242/next)',
      '      - go(http://127.0.0.1:5242/${later})',
      '      - clickByID(send)',
      '    - http://127.0.0.1:5243/plain',
    ]);
    const pages = uiPagesOf(scriptPlan(yaml));
    expect(pages.map((p) => [p.name, p.url, p.actions.length])).toEqual([
      ['Start', 'http://127.0.0.1:5241/form', 3],
      ['http://127.0.0.1:5243/plain', 'http://127.0.0.1:5243/plain', 0],
    ]);
    expect(writtenUrls(pages)).toEqual([
      'http://127.0.0.1:5241/form',
      'http://127.0.0.1:5242/next',
      'http://127.0.0.1:5243/plain',
    ]);
  });

  it('refuses a script with an action it does not know, by name and line, before anything runs', () => {
    const yaml = seleniumScript('http://127.0.0.1:5241', [
      '    - url: /form',
      '      actions:',
      '      - clickByID(send)',
      '      - hoverByID(menu)',
    ]);
    let error: unknown;
    try {
      uiPagesOf(scriptPlan(yaml));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SeleniumScriptError);
    expect((error as SeleniumScriptError).message).toBe(
      'This script has 1 action(s) AnybodyQA cannot run: hoverByID (line 11)',
    );
  });
});

describe('keys and selectors', () => {
  it("presses Selenium's named keys and types other text", () => {
    expect(readKeys('KEY_ENTER')).toEqual({ press: 'Enter' });
    expect(readKeys('KEY_PAGE_DOWN')).toEqual({ press: 'PageDown' });
    expect(readKeys('hello')).toEqual({ type: 'hello' });
    expect(readKeys('KEY_NOPE')).toEqual({ unknown: 'KEY_NOPE' });
  });

  it('reads an element_exists selector as XPath when it is written as one', () => {
    expect(elementSelector('#cart')).toBe('#cart');
    expect(elementSelector('//div[@id="cart"]')).toBe('xpath=//div[@id="cart"]');
    expect(elementSelector('(//a)[2]')).toBe('xpath=(//a)[2]');
    expect(elementSelector('xpath=//a')).toBe('xpath=//a');
  });
});
