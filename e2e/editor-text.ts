import { expect, type Locator } from '@playwright/test';

/**
 * The code editors (apps/web/src/components/code-editor/code-editor.tsx) draw only the lines in view, so
 * their whole text is read from the editor's host element (its `editorText`), not from the DOM.
 */
export function editorText(textbox: Locator): Promise<string> {
  return textbox.evaluate((element) => {
    // A text area (the editors before CodeMirror) holds its text itself.
    if (element instanceof HTMLTextAreaElement) return element.value;
    const host = element.closest<HTMLElement & { editorText?: string }>('[data-code-editor]');
    if (!host || typeof host.editorText !== 'string') throw new Error('not in a code editor');
    return host.editorText;
  });
}

/** Waits until the editor's whole text matches (a RegExp) or equals (a string). */
export async function expectEditorText(
  textbox: Locator,
  expected: RegExp | string,
  options: { timeout?: number } = {},
): Promise<void> {
  const poll = expect.poll(() => editorText(textbox), options);
  if (typeof expected === 'string') await poll.toBe(expected);
  else await poll.toMatch(expected);
}

/** The host element of a code editor (its rows, its size). */
export function editorHost(textbox: Locator): Locator {
  return textbox.locator('xpath=ancestor::*[@data-code-editor][1]');
}
