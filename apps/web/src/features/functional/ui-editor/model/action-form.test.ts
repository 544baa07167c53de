import { UiActionSchema, type UiAction } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import {
  actionFormOf,
  actionOfForm,
  actionProblems,
  newActionForm,
  uiActionsReducer,
  type UiActionForm,
  type UiActionsEdit,
} from './action-form';

/* The UI editor's action steps (docs/adr/0030-recorded-ui-tests.md §6). */

const ASSERT: UiAction = {
  kind: 'assertText',
  source: { action: 'assertText id=out Hello Ada', path: "Selenium IDE test 'Sign in', command 7" },
  locators: [
    { by: 'id', value: 'out' },
    { by: 'css', value: '#out' },
    { by: 'xpath', value: '//p[@id="out"]' },
  ],
  expected: 'Hello Ada',
  not: true,
};
const SCROLL: UiAction = {
  kind: 'scroll',
  source: { action: 'scroll #list', path: "Chrome Recorder 'Shop', step 4" },
  locators: [{ by: 'css', value: '#list' }],
  x: 0,
  y: 400,
};

function edit(actions: UiActionForm[], ...edits: UiActionsEdit[]): UiActionForm[] {
  return edits.reduce(uiActionsReducer, actions);
}

function only(actions: UiActionForm[]): UiActionForm {
  const [first] = actions;
  if (!first) throw new Error('no step');
  return first;
}

describe('a step read from a recording', () => {
  it('is saved exactly as it was read while nobody edits it, even a kind the editor has no fields for', () => {
    for (const action of [ASSERT, SCROLL]) expect(actionOfForm(actionFormOf(action))).toBe(action);
    expect(actionProblems(actionFormOf(ASSERT))).toEqual([]);
  });

  it('once edited, says so in its source, keeps its recorded options and fallbacks while the locator is the recorded one', () => {
    const form = actionFormOf(ASSERT);
    const [edited] = edit([form], { type: 'set', id: form.id, patch: { value: 'Hello Grace', soft: true } });
    const action = actionOfForm(edited!);
    expect(UiActionSchema.parse(action)).toEqual(action);
    expect(action).toEqual({
      kind: 'assertText',
      source: {
        action: 'assertText id: out | css: #out | xpath: //p[@id="out"] Hello Grace',
        path: "Selenium IDE test 'Sign in', command 7, edited in the UI editor",
      },
      soft: true,
      locators: ASSERT.kind === 'assertText' ? ASSERT.locators : [],
      expected: 'Hello Grace',
      not: true,
    });
    // Edited twice: said once.
    const again = actionOfForm({ ...actionFormOf(action), edited: true });
    expect(again.source.path).toBe("Selenium IDE test 'Sign in', command 7, edited in the UI editor");

    // A new first locator aims at another element: the old fallbacks go.
    const [moved] = edit([form], { type: 'set', id: form.id, patch: { by: 'css', locator: '.greeting' } });
    const retargeted = actionOfForm(moved!);
    expect('locators' in retargeted && retargeted.locators).toEqual([{ by: 'css', value: '.greeting' }]);
  });

  it('of a kind the editor has no fields for cannot change kind, and is kept when its row is touched', () => {
    const form = actionFormOf(SCROLL);
    const [same] = edit([form], { type: 'setKind', id: form.id, kind: 'click' });
    expect(same!.kind).toBe('scroll');
    expect(actionOfForm(same!)).toBe(SCROLL);
  });
});

describe('a step made in the editor', () => {
  it('keeps the locator and value when its kind changes, and drops what the new kind has no field for', () => {
    let steps = edit([], { type: 'add', kind: 'type' });
    const id = only(steps).id;
    steps = edit(
      steps,
      { type: 'set', id, patch: { by: 'id', locator: 'email', value: 'ada@example.com', soft: true } },
      { type: 'setKind', id, kind: 'assertValue' },
    );
    const action = actionOfForm(only(steps));
    expect(UiActionSchema.parse(action)).toEqual(action);
    expect(action).toEqual({
      kind: 'assertValue',
      source: { action: 'assertValue id: email ada@example.com', path: 'Added in the UI editor' },
      soft: true,
      locators: [{ by: 'id', value: 'email' }],
      expected: 'ada@example.com',
    });
    // Not an assertion: no "Continue on failure", the locator still there.
    steps = edit(steps, { type: 'setKind', id, kind: 'click' });
    expect(actionOfForm(only(steps))).toEqual({
      kind: 'click',
      source: { action: 'click id: email', path: 'Added in the UI editor' },
      locators: [{ by: 'id', value: 'email' }],
    });
  });

  it('writes a role locator with its accessible name, a wait with its state and time, a store with its variable', () => {
    const [wait, store, role] = edit(
      [],
      { type: 'add', kind: 'waitFor' },
      { type: 'add', kind: 'storeText' },
      { type: 'add', kind: 'click' },
    );
    const built = [
      { ...wait!, by: 'css' as const, locator: '#done', state: 'notvisible' as const, ms: '2500' },
      { ...store!, by: 'xpath' as const, locator: '//h1', variable: ' heading ' },
      { ...role!, by: 'role' as const, locator: 'button', roleName: 'Sign in' },
    ].map(actionOfForm);
    for (const action of built) expect(UiActionSchema.parse(action)).toEqual(action);
    expect(built[0]).toMatchObject({ kind: 'waitFor', state: 'notvisible', timeout_ms: 2500 });
    expect(built[1]).toMatchObject({ kind: 'storeText', variable: 'heading' });
    expect(built[2]).toMatchObject({ locators: [{ by: 'role', value: 'button', name: 'Sign in' }] });
  });

  it('moves up and down within the list and is removed by its id', () => {
    let steps = edit(
      [],
      { type: 'add', kind: 'go' },
      { type: 'add', kind: 'click' },
      { type: 'add', kind: 'echo' },
    );
    steps = edit(steps, { type: 'move', from: 2, to: 1 });
    expect(steps.map((step) => step.kind)).toEqual(['go', 'echo', 'click']);
    steps = edit(steps, { type: 'move', from: 0, to: -1 });
    expect(steps.map((step) => step.kind)).toEqual(['go', 'echo', 'click']);
    steps = edit(steps, { type: 'remove', id: steps[1]!.id });
    expect(steps.map((step) => step.kind)).toEqual(['go', 'click']);
  });
});

describe("a step's problems", () => {
  it('names a blank URL, locator and variable, and a time that is not whole ms from 0 to 600000, on their fields', () => {
    expect(actionProblems(newActionForm('go'))).toEqual([{ field: 'value', problem: 'url' }]);
    expect(actionProblems(newActionForm('assertText'))).toEqual([{ field: 'locator', problem: 'locator' }]);
    expect(actionProblems({ ...newActionForm('storeValue'), locator: '#a' })).toEqual([
      { field: 'variable', problem: 'variable' },
    ]);
    expect(actionProblems(newActionForm('storeTitle'))).toEqual([{ field: 'variable', problem: 'variable' }]);
    for (const ms of ['', 'soon', '1.5', '-1', '600001'])
      expect(actionProblems({ ...newActionForm('pauseFor'), ms })).toEqual([{ field: 'ms', problem: 'ms' }]);
    for (const ms of ['0', '600000', ' 250 '])
      expect(actionProblems({ ...newActionForm('pauseFor'), ms })).toEqual([]);
    expect(actionProblems({ ...newActionForm('waitFor'), locator: '#x', ms: '' })).toEqual([
      { field: 'ms', problem: 'ms' },
    ]);
    // What the model would refuse, the check names first: a blank time reaches the model as -1.
    expect(UiActionSchema.safeParse(actionOfForm({ ...newActionForm('pauseFor'), ms: '' })).success).toBe(
      false,
    );
  });
});
