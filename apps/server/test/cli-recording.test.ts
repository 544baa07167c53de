import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiTokenCreated, MessageList } from '@aqa/plan';
import { serveSignIn } from '@aqa/ui-runner/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTestServer,
  makeTempDir,
  registerAndLogin,
  removeDir,
  startTestServer,
  type TestServer,
} from './helpers';

/*
 * `aqa test recording.side --server URL` (docs/recorded-ui-tests.md "From the command line"): the
 * served command line, run with Node alone as a CI job runs it, uploads a Selenium IDE project to a
 * real server, which saves it as a UI plan, runs it in its Chromium against a sign-in page on loopback
 * and reports it: each recorded test and command by the recorder's name, exit 0 or 1, the JUnit case
 * naming the failed command, the run on the functional dashboard and in Messages.
 */

const FIXTURES = fileURLToPath(new URL('../../../packages/ui-runner/test-fixtures/', import.meta.url));

let server: TestServer;
let baseUrl: string;
let session: string;
let apiToken: ApiTokenCreated;
let dir: string;
let site: { origin: string; close: () => Promise<void> };

interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

function aqa(args: string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(dir, 'aqa.mjs'), ...args],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const withToken = () => ({ AQA_SERVER: baseUrl, AQA_TOKEN: apiToken.token });

beforeAll(async () => {
  site = await serveSignIn();
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    EXTERNAL_TOOLS: 'off',
    AQA_BROWSER_PATH: '/usr/bin/chromium',
    AQA_UI_BROWSERS: '1',
    AQA_UI_STEP_TIMEOUT_MS: '10000',
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  session = (await registerAndLogin(server)).token;
  const created = await server.request({
    method: 'POST',
    url: '/api/tokens',
    token: session,
    body: { name: 'CI' },
  });
  apiToken = created.json<ApiTokenCreated>();
  dir = makeTempDir();
  const response = await fetch(`${baseUrl}/downloads/aqa.mjs`);
  expect(response.status).toBe(200);
  writeFileSync(join(dir, 'aqa.mjs'), Buffer.from(await response.arrayBuffer()));
  for (const file of ['sign-in.side', 'sign-in-fails.side'])
    copyFileSync(join(FIXTURES, file), join(dir, file));
}, 180_000);

afterAll(async () => {
  await closeTestServer(server);
  await site?.close();
  removeDir(dir);
});

async function uiPlans(): Promise<{ id: string; test_name: string }[]> {
  const r = await server.request({ method: 'GET', url: '/api/functional/get-test-configs', token: session });
  return r.json<{ id: string; test_name: string; test_type: string }[]>().filter((p) => p.test_type === 'ui');
}

describe('aqa test of a browser recording', () => {
  it('says it needs a server, with exit 2, when none is given: the command line has no browser', async () => {
    const outcome = await aqa(['test', 'sign-in.side']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'sign-in.side is a Selenium IDE project, a UI test: it runs in a browser, which this command line does not have',
    );
    expect(outcome.stderr).toContain('aqa test sign-in.side --server URL --token T');
  });

  it('saves the project as a UI plan, runs it on the server and prints each command by its name; a second run updates the plan', async () => {
    const first = await aqa(['test', 'sign-in.side', '--base-url', site.origin], withToken());
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain(
      'sign-in.side: 1 recorded test(s), 6 action(s); saved the UI plan "Sign in"',
    );
    expect(first.stdout).toMatch(/^✓ Sign in {2}\d/m);
    expect(first.stdout).toContain("    ✓ Selenium IDE test 'Sign in', command 3 `type id=name Ada`");
    expect(first.stdout).toContain(
      "    ✓ Selenium IDE test 'Sign in', command 6 `assertText id=out Hello Ada`",
    );
    expect(first.stdout).toContain('Sign in: completed');
    const plans = (await uiPlans()).filter((p) => p.test_name === 'Sign in');
    expect(plans).toHaveLength(1);

    const again = await aqa(['test', 'sign-in.side', '--base-url', site.origin], withToken());
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain(`updated the UI plan "Sign in" (${plans[0]!.id})`);
    expect((await uiPlans()).filter((p) => p.test_name === 'Sign in')).toHaveLength(1);
  });

  it('exits 1 when a command fails, naming it with what was expected and found, in the terminal and the JUnit report; the run is on the dashboard and in Messages', async () => {
    const outcome = await aqa(
      ['test', 'sign-in-fails.side', '--base-url', site.origin, '--junit', 'junit.xml'],
      withToken(),
    );
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(1);
    expect(outcome.stdout).toMatch(/^✗ Sign in {2}\d/m);
    expect(outcome.stdout).toContain("    ✓ Selenium IDE test 'Sign in', command 5 `echo signed in`");
    expect(outcome.stdout).toContain(
      '    ✗ Selenium IDE test \'Sign in\', command 7 `assertText id=out Hello Ada`\n        expected the text "Hello Ada" in the element by id: out, found "Hello"',
    );
    expect(outcome.stdout).not.toContain('command 8');
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(1);
    expect(junit).toContain(
      "<failure message=\"Selenium IDE test 'Sign in', command 7 `assertText id=out Hello Ada` — expected the text &quot;Hello Ada&quot;",
    );

    const runId = /functional-test-result\/(\S+)/.exec(outcome.stdout)?.[1];
    expect(runId).toBeDefined();
    const list = await server.request({
      method: 'GET',
      url: '/api/functional/functional-test-results',
      token: session,
    });
    const run = list
      .json<{ test_id: string; test_name: string; status: string; test_type: string }[]>()
      .find((r) => r.test_id === decodeURIComponent(runId!));
    expect(run).toMatchObject({ test_name: 'Sign in, broken', status: 'failed', test_type: 'ui' });
    const messages = await server.request({ method: 'GET', url: '/api/messages', token: session });
    const about = messages.json<MessageList>().messages.filter((m) => m.run_id === run?.test_id);
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({ kind: 'failed', test_type: 'ui' });
  });
});
