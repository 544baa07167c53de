import type { CodeEditorHost } from '@/components/code-editor/code-editor';

/** The code editor a test id names (the id is on its text box): its host element. */
export function editorHost(textbox: HTMLElement): CodeEditorHost {
  const host = textbox.closest<CodeEditorHost>('[data-code-editor]');
  if (!host) throw new Error(`${textbox.dataset.testid ?? 'This element'} is not in a code editor`);
  return host;
}

/** The whole text of a code editor, also the lines out of view (which are not in the DOM). */
export function editorText(textbox: HTMLElement): string {
  return editorHost(textbox).editorText;
}
