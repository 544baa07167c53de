import { readFileSync } from 'node:fs';
import { serveDirectory } from '@aqa/ui-runner/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDINGS } from './fixtures';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { multipartBody as multipart, type Part } from './multipart-body';
import { waitFor } from './wait-for';

/*
 * A Selenium IDE project uploaded to /api/functional/parse-file (docs/adr/0030-recorded-ui-tests.md §3):
 * the answer is a UI plan that save-config takes as it is; run through the server in the real Chromium
 * against Selenium IDE's own pages, each test is a step that passes with every command; a command that
 * cannot run refuses the upload by name and position, and the load-test import says what the file is.
 */

const FIXTURES = `${RECORDINGS}selenium-ide/`;
const SIDE = readFileSync(`${FIXTURES}sides/select-examples.side`);

let server: TestServer;
let token: string;
let site: { origin: string; close: () => Promise<void> };

beforeAll(async () => {
  site = await serveDirectory(`${FIXTURES}static`);
  server = await startTestServer({
    AQA_BROWSER_PATH: '/usr/bin/chromium',
    AQA_UI_BROWSERS: '1',
    AQA_UI_STEP_TIMEOUT_MS: '10000',
  });
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await closeTestServer(server);
  await site?.close();
});

async function upload(url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return server.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

interface Step {
  api_name: string;
  success: boolean;
  error: string | null;
  ui: { actions: { action: string; passed: boolean }[] };
}

describe('a Selenium IDE project through the functional file parse', () => {
  it('answers a UI plan that saves, runs in Chromium and passes test by test', async () => {
    const parsed = await upload('/api/functional/parse-file', [
      { name: 'file', filename: 'select-examples.side', content: SIDE },
      { name: 'base_url', content: site.origin },
    ]);
    expect(parsed.statusCode, parsed.body).toBe(200);
    const answer = parsed.json<{
      format: string;
      test_type: string;
      recording: unknown;
      info: { kind: string };
      plan: { test_type: string; apis: { name: string; url: string; actions: unknown[] }[] };
    }>();
    expect(answer).toMatchObject({
      format: 'selenium-ide',
      test_type: 'ui',
      recording: { tests: 2, actions: 7, skipped: 0 },
      info: { kind: 'Selenium IDE project' },
    });
    expect(answer.plan.apis.map((a) => [a.name, a.url, a.actions.length])).toEqual([
      ['select-verify-labels', '', 3],
      ['select strategies', '', 4],
    ]);

    const saved = await server.request({
      method: 'POST',
      url: '/api/functional/save-config',
      token,
      body: answer.plan,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const { id } = saved.json<{ id: string }>();
    const read = await server.request({ method: 'GET', url: `/api/functional/get-test-config/${id}`, token });
    expect(read.json<{ apis: { actions: unknown[] }[] }>().apis.map((a) => a.actions)).toEqual(
      answer.plan.apis.map((a) => a.actions),
    );

    const started = await server.request({
      method: 'POST',
      url: '/api/functional/run-test',
      token,
      body: answer.plan,
    });
    expect(started.statusCode, started.body).toBe(201);
    const testId = started.json<{ test_id: string }>().test_id;
    const done = await waitFor(
      'the run to end',
      async () => {
        const r = await server.request({
          method: 'GET',
          url: `/api/functional/get-test-result/${testId}`,
          token,
        });
        const result = r.json<{ status: string; validation_results: Step[] }>();
        return result.status === 'running' || result.status === 'queued' ? undefined : result;
      },
      60_000,
      200,
    );
    expect(done.status).toBe('completed');
    expect(
      done.validation_results.map((s) => [s.api_name, s.success, s.ui.actions.map((a) => a.passed)]),
    ).toEqual([
      ['select-verify-labels', true, [true, true, true]],
      ['select strategies', true, [true, true, true, true]],
    ]);
  }, 90_000);

  it('reads a Chrome DevTools Recorder export by its content, as one UI step named by its title', async () => {
    const recording = {
      title: 'Sign in',
      steps: [
        {
          type: 'setViewport',
          width: 800,
          height: 600,
          deviceScaleFactor: 1,
          isMobile: false,
          hasTouch: false,
          isLandscape: false,
        },
        { type: 'navigate', url: `${site.origin}/value.html` },
        { type: 'change', selectors: [['#v'], ['aria/Value']], value: 'Ada' },
      ],
    };
    const parsed = await upload('/api/functional/parse-file', [
      { name: 'file', filename: 'sign-in.json', content: Buffer.from(JSON.stringify(recording)) },
    ]);
    expect(parsed.statusCode, parsed.body).toBe(200);
    expect(parsed.json()).toMatchObject({
      format: 'chrome-recorder',
      test_type: 'ui',
      recording: { tests: 1, actions: 3 },
      plan: { test_name: 'Sign in', apis: [{ name: 'Sign in', url: '' }] },
    });
  });

  it('reads a Playwright codegen script by its import, one step per test', async () => {
    const script = [
      "import { test, expect } from '@playwright/test';",
      '',
      "test('values', async ({ page }) => {",
      `  await page.goto('${site.origin}/value.html');`,
      "  await page.locator('#v').fill('Ada');",
      "  await expect(page.locator('#v')).toHaveValue('Ada');",
      '});',
    ].join('\n');
    const parsed = await upload('/api/functional/parse-file', [
      { name: 'file', filename: 'values.spec.js', content: Buffer.from(script) },
    ]);
    expect(parsed.statusCode, parsed.body).toBe(200);
    expect(parsed.json()).toMatchObject({
      format: 'playwright',
      test_type: 'ui',
      info: { kind: 'Playwright codegen script' },
      recording: { tests: 1, actions: 3 },
      plan: { test_name: 'values', apis: [{ name: 'values', url: '' }] },
    });
  });

  it('refuses a command it cannot run by name, test and position; the load import says what the file is', async () => {
    const project = JSON.parse(SIDE.toString()) as { tests: { commands: unknown[] }[] };
    project.tests[1]!.commands.push({ id: 'x', command: 'myPluginCommand', target: 'x', value: '' });
    const refused = await upload('/api/functional/parse-file', [
      { name: 'file', filename: 'plugin.side', content: Buffer.from(JSON.stringify(project)) },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toContain(
      'plugin.side: Selenium IDE test \'select strategies\', command 5 `myPluginCommand x`: "myPluginCommand" is not a Selenium IDE command AnybodyQA runs',
    );

    const load = await upload('/api/parse-postman', [
      { name: 'file', filename: 'select-examples.side', content: SIDE },
    ]);
    expect(load.statusCode).toBe(400);
    expect(load.json<{ detail: string }>().detail).toContain(
      'a Selenium IDE project: a browser test, which is imported as a UI test',
    );
  });
});
