/*
 * Selenium's named keys (KEY_ENTER, KEY_TAB, …) as Playwright's key names (docs/reference/02-running.md
 * §3 "Selenium-style scripts"): keysByID(q): KEY_ENTER presses Enter; other text is typed as written.
 */

const NAMED: Record<string, string> = {
  ENTER: 'Enter',
  RETURN: 'Enter',
  TAB: 'Tab',
  ESCAPE: 'Escape',
  ESC: 'Escape',
  SPACE: 'Space',
  BACKSPACE: 'Backspace',
  BACK_SPACE: 'Backspace',
  DELETE: 'Delete',
  INSERT: 'Insert',
  HOME: 'Home',
  END: 'End',
  PAGE_UP: 'PageUp',
  PAGE_DOWN: 'PageDown',
  UP: 'ArrowUp',
  DOWN: 'ArrowDown',
  LEFT: 'ArrowLeft',
  RIGHT: 'ArrowRight',
  ARROW_UP: 'ArrowUp',
  ARROW_DOWN: 'ArrowDown',
  ARROW_LEFT: 'ArrowLeft',
  ARROW_RIGHT: 'ArrowRight',
  SHIFT: 'Shift',
  CONTROL: 'Control',
  ALT: 'Alt',
  META: 'Meta',
  CONTROL_OR_META: 'ControlOrMeta',
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = `F${n}`;

/** What keys text means: a named key to press, text to type, or an unknown KEY_ name. */
export type KeysInput = { press: string } | { type: string } | { unknown: string };

export function readKeys(text: string): KeysInput {
  // A combination: KEY_CONTROL+a, KEY_CONTROL+KEY_SHIFT+KEY_LEFT (Playwright's press('Control+A')).
  const combination = /^\s*((?:KEY_[A-Z_]+\+)+)(KEY_[A-Z0-9_]+|.)\s*$/i.exec(text);
  if (combination !== null) {
    const parts = [...(combination[1] ?? '').split('+').filter((p) => p !== ''), combination[2] ?? ''];
    const keys = parts.map((part) => (/^KEY_/i.test(part) ? NAMED[part.slice(4).toUpperCase()] : part));
    const unknown = keys.findIndex((k) => k === undefined);
    return unknown === -1 ? { press: keys.join('+') } : { unknown: parts[unknown] ?? text };
  }
  const match = /^\s*KEY_([A-Z0-9_]+)\s*$/i.exec(text);
  if (match === null) return { type: text };
  const key = NAMED[(match[1] ?? '').toUpperCase()];
  return key === undefined ? { unknown: text.trim() } : { press: key };
}

export const KNOWN_KEYS = Object.keys(NAMED).map((name) => `KEY_${name}`);
