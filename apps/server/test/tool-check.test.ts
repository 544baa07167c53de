import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineInfo, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { waitForRunEnd } from './wait-for';

/*
 * A tool that is found is checked once with a one-request test plan before runs use it. Stand-in
 * tools make the outcome independent of this machine:
 * - a `jmeter` that knows its version but cannot load a plan (prints Debian 2.13's
 *   ForbiddenClassException and exits 0): listed as found but not usable, with the reason, and its
 *   plans run in the built-in engine, which the target counts;
 * - a `k6` that passes the check (it really sends the check's request and writes k6's JSON point)
 *   and then fails every run with a panic: the run fails with a short message, and the tool's own
 *   output is stored as the run's error_details.
 */

const FORBIDDEN =
  'Error in NonGUIDriver com.thoughtworks.xstream.security.ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper';
const REASON =
  "JMeter 2.13 is installed but cannot load test plans: XStream rejects JMeter's own classes (ForbiddenClassException)";

let server: TestServer;
let target: CountingTarget;
let token: string;
let toolsDir: string;

function executable(name: string, text: string): string {
  const file = join(toolsDir, name);
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

beforeAll(async () => {
  toolsDir = makeTempDir();
  const jmeter = executable(
    'jmeter',
    [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then echo "Version 2.13.19691222"; exit 0; fi',
      'echo "Creating summariser <summary>"',
      `echo "${FORBIDDEN}"`,
      'exit 0',
    ].join('\n'),
  );
  // Node, so it can send the check's request: k6's JSON output is one Point per request.
  const k6 = executable(
    'k6',
    `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args[0] === 'version') { console.log('k6 v0.49.0 (go1.21.6, linux/amd64)'); process.exit(0); }
const calls = __filename + '.calls';
const n = fs.existsSync(calls) ? Number(fs.readFileSync(calls, 'utf8')) : 0;
fs.writeFileSync(calls, String(n + 1));
if (n > 0) {
  console.log('execution: local');
  console.error('panic: runtime error: invalid memory address or nil pointer dereference');
  console.error('goroutine 1 [running]:');
  process.exit(2);
}
const out = args[args.indexOf('--out') + 1].replace(/^json=/, '');
const script = fs.readFileSync(args[args.length - 1], 'utf8');
const url = /http:\\/\\/127\\.0\\.0\\.1:\\d+[^'"\\x60\\s]*/.exec(script)[0];
const name = JSON.parse(/tags: \\{ name: ("(?:[^"\\\\]|\\\\.)*") \\}/.exec(script)[1]);
fetch(url).then(async (res) => {
  await res.text();
  const time = new Date().toISOString();
  const tags = { name, group: '::' + name, method: 'GET', status: String(res.status), expected_response: 'true', scenario: 'default' };
  const line = (metric, type, contains, value, t) => [
    { type: 'Metric', metric, data: { type, contains, tainted: null, thresholds: [], submetrics: null } },
    { type: 'Point', metric, data: { time, value, tags: t } },
  ];
  const lines = [
    ...line('http_reqs', 'counter', 'default', 1, tags),
    ...line('http_req_duration', 'trend', 'time', 1.5, tags),
    ...line('http_req_failed', 'rate', 'default', 0, tags),
    ...line('aqa_errors', 'rate', 'default', 0, { group: '::' + name, scenario: 'default' }),
  ];
  fs.writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\\n') + '\\n');
});
`,
  );
  target = await startCountingTarget();
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    EXTERNAL_TOOLS: 'on',
    JMETER_CMD: jmeter,
    K6_CMD: k6,
    LOCUST_CMD: join(toolsDir, 'no-locust-here'),
    BZT_CMD: join(toolsDir, 'no-bzt-here'),
  });
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server?.close();
  await target?.close();
});

async function engines(): Promise<EngineInfo[]> {
  const response = await server.request({ method: 'GET', url: '/api/engines', token });
  expect(response.statusCode).toBe(200);
  return response.json<EngineInfo[]>();
}

async function runPlan(
  tool: 'jmeter' | 'k6',
): Promise<{ started: { engine: string; engine_note: string }; result: TestResult }> {
  await target.reset();
  const saved = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token,
    body: {
      name: `A ${tool} plan`,
      tool,
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/checked`, thinkTime: '100ms' }],
    },
  });
  expect(saved.statusCode).toBe(201);
  const response = await server.request({
    method: 'POST',
    url: '/api/run-test',
    token,
    body: { plan_id: saved.json<{ id: string }>().id, duration_seconds: 2 },
  });
  expect(response.statusCode, response.body).toBe(201);
  const started = response.json<{ test_id: string; engine: string; engine_note: string }>();
  const result = await waitForRunEnd<TestResult>(server, token, 'load', started.test_id, 60_000, 200);
  return { started, result };
}

describe('tools are checked before runs use them', () => {
  it('a jmeter that cannot load a plan: its plans run in the built-in engine, saying why', async () => {
    // The run waits for the check (this server never listened, so the run starts it).
    const { started, result } = await runPlan('jmeter');
    const note = `${REASON}; this run used the built-in engine`;
    expect(started).toMatchObject({ engine: 'builtin', engine_note: note });
    expect(result).toMatchObject({ status: 'completed', engine: 'builtin', engine_note: note, error: null });
    const counted = (await target.counts()).total;
    expect(counted).toBeGreaterThan(0);
    expect(result.summary?.total_requests).toBe(counted);

    expect((await engines()).find((e) => e.tool === 'jmeter')).toEqual({
      tool: 'jmeter',
      name: 'Apache JMeter',
      installed: true,
      version: '2.13',
      command: join(toolsDir, 'jmeter'),
      usable: false,
      reason: REASON,
    });
  }, 90_000);

  it("a tool that passed its check but fails a run: a short error, and the tool's output as error_details", async () => {
    const { started, result } = await runPlan('k6');
    expect(started).toMatchObject({ engine: 'k6', engine_note: 'ran in Grafana k6 0.49.0' });
    expect((await engines()).find((e) => e.tool === 'k6')).toMatchObject({ usable: true, reason: null });
    expect(result.status).toBe('failed');
    expect(result.error).toBe('k6 stopped with an error (exit code 2) before sending any request.');
    expect(result.error_details).toMatch(/^\$ .*k6 run /);
    expect(result.error_details).toContain(
      'panic: runtime error: invalid memory address or nil pointer dereference\ngoroutine 1 [running]:',
    );
    // Stored: the list of runs reads it back from the database too.
    const again = await server.request({
      method: 'GET',
      url: `/api/get-test-result/${result.test_id}`,
      token,
    });
    expect(again.json<TestResult>().error_details).toBe(result.error_details);
  }, 90_000);
});
