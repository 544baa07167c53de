import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordingKind } from './remote-recording';

/*
 * Which files `aqa test` sends to a server as browser recordings (docs/recorded-ui-tests.md "From the
 * command line"): told by their content, as parse-file tells them; a plan, a Postman collection or a
 * Taurus script is left to the local `aqa test` as before.
 */

const dir = mkdtempSync(join(tmpdir(), 'aqa-recording-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('recordingKind', () => {
  it('knows a Selenium IDE project, a Recorder export and a codegen script by their content', () => {
    const side = { name: 'P', url: 'http://x', tests: [{ name: 'T', commands: [] }] };
    expect(recordingKind(file('p.side', side))).toBe('selenium-ide');
    // A project saved under another name is still one.
    expect(recordingKind(file('project.json', side))).toBe('selenium-ide');
    expect(
      recordingKind(file('login.json', { title: 'Login', steps: [{ type: 'navigate', url: 'http://x' }] })),
    ).toBe('chrome-recorder');
    const codegen = [
      "import { test, expect } from '@playwright/test';",
      "test('signs in', async ({ page }) => {",
      "  await page.goto('http://x/');",
      '});',
    ].join('\n');
    expect(recordingKind(file('login.spec.ts', codegen))).toBe('playwright');
  });

  it('leaves plans, collections, scripts and missing files to the local aqa test', () => {
    expect(recordingKind(file('plan.json', { test_name: 'API', apis: [] }))).toBeUndefined();
    expect(
      recordingKind(file('c.json', { info: { schema: 'https://schema.getpostman.com/x' }, item: [] })),
    ).toBeUndefined();
    expect(recordingKind(file('script.yml', 'execution: []\n'))).toBeUndefined();
    expect(recordingKind(file('helper.ts', 'export const x = 1;\n'))).toBeUndefined();
    expect(recordingKind(file('broken.json', '{ not json'))).toBeUndefined();
    expect(recordingKind(join(dir, 'absent.side'))).toBeUndefined();
  });
});
