import type { UiAction, UiLocator } from './ui-action';

/*
 * One way to say what a UI action does, for every screen that lists actions (the Script screen's page
 * list, the UI editor's action steps; docs/adr/0030-recorded-ui-tests.md §1): what it acts on — its
 * locators (fallbacks after the first), a URL, a text — and the value it types, chooses, expects or
 * stores into.
 */

/** A locator as a person reads it: "css: #submit", "role: button 'Sign in'". */
export function locatorText(locator: UiLocator): string {
  const name = locator.name === undefined ? '' : ` '${locator.name}'`;
  return `${locator.by}: ${locator.value}${name}`;
}

/** What an action acts on, as its source wrote it: its locators (fallbacks after the first), URL or text. */
export function uiActionTarget(action: UiAction): string {
  switch (action.kind) {
    case 'go':
      return action.url;
    case 'assertTitle':
    case 'assertUrl':
      return action.expected;
    case 'assertPage':
      return action.text;
    case 'storeTitle':
      return action.variable;
    case 'storeString':
      return `${action.variable} = ${action.value}`;
    case 'pauseFor':
      return `${action.ms} ms`;
    case 'screenshot':
      return action.file ?? '';
    case 'keyDown':
    case 'keyUp':
      return action.key;
    case 'waitForExpression':
      return action.expression;
    case 'executeScript':
      return action.script;
    case 'echo':
      return action.text;
    case 'setViewport':
      return `${action.width}×${action.height}`;
    case 'control':
      return action.variable === undefined ? action.expression : `${action.expression} → ${action.variable}`;
    case 'assertVariable':
      return action.variable;
    case 'dialog':
      return `${action.dialog} ${action.act}`;
    case 'selectFrame':
      return action.frame === 'index'
        ? `index=${action.index ?? 0}`
        : action.frame === 'path'
          ? `index=${(action.path ?? []).map((p) => (p === 'parent' ? '..' : String(p))).join('\\')}`
          : action.frame === 'element'
            ? (action.locators ?? []).map(locatorText).join(' | ')
            : `relative=${action.frame}`;
    case 'selectWindow':
      return action.handle;
    case 'storeWindowHandle':
    case 'waitForWindow':
      return action.variable;
    case 'closeWindow':
      return '';
    case 'dragAndDrop':
      return `${action.locators.map(locatorText).join(' | ')} → ${action.to.map(locatorText).join(' | ')}`;
    default:
      return action.locators.map(locatorText).join(' | ');
  }
}

/** The value an action types, chooses, expects or stores into, when it has one. */
export function uiActionValue(action: UiAction): string | null {
  switch (action.kind) {
    case 'type':
      return action.text;
    case 'keys':
      return action.keys;
    case 'select':
      return action.option;
    case 'assertText':
    case 'assertValue':
    case 'assertSelectedLabel':
    case 'assertSelectedValue':
      return action.expected;
    case 'executeScript':
      return action.variable ?? null;
    case 'storeText':
    case 'storeValue':
    case 'storeAttribute':
    case 'storeCount':
      return action.variable;
    case 'editContent':
      return action.text;
    case 'assertVariable':
      return action.expected;
    case 'dialog':
      return action.text === '' ? null : action.text;
    case 'waitFor':
      return `${action.state}, ${action.timeout_ms / 1000} s`;
    default:
      return null;
  }
}
