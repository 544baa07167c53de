import { expect, test, type Page } from '@playwright/test';
import { MAX_TEXT_CHARS } from '../packages/plan/src/text-limits';
import { newAccount, register, signIn } from './helpers';
import { editorText, expectEditorText } from './editor-text';

/**
 * Large pastes into the script editor (docs/reference/02-running.md §2 "Functional Script Input screen",
 * docs/performance.md "Script editors and large pastes"): a 300 KB Taurus script pasted with Ctrl+V is
 * all there and the editor takes the next key within a bound far above what the code editor needs
 * (about 0.3 s, docs/performance.md) and far below what the text area with its highlighted copy took
 * (over 100 s), so that a loaded 2-core box does not make it fail; a 5 MB paste is refused whole with
 * the limit named, and the script typed before it stays.
 */

/** A Taurus script of at least `chars` characters, its requests one after another. */
function taurusScript(chars: number): string {
  let text =
    'execution:\n  - executor: jmeter\n    concurrency: 1\n    hold-for: 1m\n    scenario: big\n\nscenarios:\n  big:\n    requests:\n';
  for (let i = 0; text.length < chars; i++) {
    text += `      - url: https://example.test/items/${i}\n        method: GET\n        label: Item ${i}\n`;
  }
  return text;
}

const PASTE_BOUND_MS = 15_000;

async function paste(page: Page, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

test('a 300 KB paste is in the script editor and typing goes on; a 5 MB paste is refused at the limit', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const account = newAccount('editor-paste');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.goto('/functional-test/script-input');
  const editor = page.getByTestId('script-content');
  await editor.click();

  const script = taurusScript(300_000);
  const started = Date.now();
  await paste(page, script);
  await page.keyboard.press('End');
  await page.keyboard.type('# typed after');
  await expectEditorText(editor, `${script}# typed after`, { timeout: PASTE_BOUND_MS });
  expect(Date.now() - started).toBeLessThan(PASTE_BOUND_MS);
  // The reader answers on the pasted script, in its worker: its requests are listed.
  await expect(page.getByTestId('parsed-apis-title')).toContainText('Parsed APIs (', { timeout: 30_000 });

  // 5 MB: refused whole, the limit named, and the script of before kept.
  await paste(page, 'x'.repeat(5 * 1024 * 1024));
  const refusal = page.getByTestId('script-content-too-long');
  await expect(refusal).toContainText(
    `this field holds at most ${MAX_TEXT_CHARS.toLocaleString('en-US')} characters. Nothing was changed.`,
  );
  expect(await editorText(editor)).toBe(`${script}# typed after`);
  // The editor still answers: a key typed now lands and the refusal goes.
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('!');
  await expectEditorText(editor, `${script}# typed after!`);
  await expect(refusal).toHaveCount(0);
});
