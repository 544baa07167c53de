import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, newRegistration, removeDir } from './helpers';
import { type LargeBodyTarget, startLargeBodyTarget } from './large-body-target';
import { type ServerProcess, startServerProcess, stopServerProcesses } from './server-process';
import { waitFor } from './wait-for';

/*
 * The memory ceiling of docs/adr/0024-memory-bounds.md: a real server process runs a functional run
 * whose every call fails against a target answering 1 MB bodies (each failure keeps evidence), is
 * polled for its live result as the result screen does, and meanwhile takes concurrent multi-file
 * uploads, some within the limits and some far over them. The process's resident memory (VmRSS, read
 * from /proc, its worker threads included) must stay under MEMORY_CEILING_MB the whole time.
 */

/** The ceiling docs/adr/0024-memory-bounds.md states for this load. */
const MEMORY_CEILING_MB = 1000;

let target: LargeBodyTarget;
let server: ServerProcess;
let dataDir: string;
let token = '';
/** The highest VmRSS seen, in MB, and when (a word saying what was going on). */
const peak = { mb: 0, during: 'start' };
let phase = 'start';
let sampler: NodeJS.Timeout | undefined;

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as T };
}

/** A multi-file OpenAPI upload: a root document that refers to nothing, and `parts` files of `mb` MB. */
async function upload(parts: number, mb: number): Promise<{ status: number; detail: string }> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([
      "openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths:\n  /pets:\n    get:\n      responses:\n        '200': {description: ok}\n",
    ]),
    'openapi.yaml',
  );
  const filler = Buffer.alloc(mb * 1024 * 1024 - 64, 'x');
  for (let i = 0; i < parts; i++) {
    form.append('files', new Blob([`# part ${i}\ndescription: "`, filler, '"\n']), `parts/part-${i}.yaml`);
  }
  const response = await fetch(`${server.base}/api/parse-swagger`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let detail = text.slice(0, 300);
  try {
    detail = (JSON.parse(text) as { detail?: string }).detail ?? detail;
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, detail };
}

beforeAll(async () => {
  dataDir = makeTempDir();
  target = await startLargeBodyTarget();
  server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'off',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    // Four uploads of one user at once: the per-user share of the import queue is not what is tested.
    IMPORT_QUEUE_PER_USER: '4',
  });
  const account = newRegistration();
  await api('POST', '/api/register', account);
  ({ token } = (
    await api<{ token: string }>('POST', '/api/login', {
      username: account.email,
      password: account.password,
    })
  ).json);
  const pid = server.child.pid!;
  sampler = setInterval(() => {
    try {
      const mb = residentMb(pid);
      if (mb > peak.mb) Object.assign(peak, { mb, during: phase });
    } catch {
      // the process has exited
    }
  }, 50);
}, 60_000);

afterAll(async () => {
  clearInterval(sampler);
  await stopServerProcesses();
  await target?.close();
  removeDir(dataDir);
});

describe('memory bounds (docs/adr/0024-memory-bounds.md)', () => {
  it(`stays under ${MEMORY_CEILING_MB} MB through a run of failing 1 MB answers and concurrent multi-file uploads`, async () => {
    const apis = 50;
    const started = await api<{ test_id: string }>('POST', '/api/functional/run-test', {
      test_name: 'Every call fails with a 1 MB body',
      concurrent_users: 4,
      iterations: 2,
      think_time: 0,
      ramp_up_time: 0,
      test_duration: 1,
      apis: Array.from({ length: apis }, (_, i) => ({
        name: `API ${i + 1}`,
        url: `${target.origin}/items/${i + 1}?kb=1024`,
        validations: [
          { type: 'status_code', expected_value: '200' },
          { type: 'contains_text', expected_value: 'needle' },
          { type: 'json_path', expected_value: '$.items[0].id == 2' },
        ],
      })),
    });
    expect(started.status).toBe(201);
    const id = started.json.test_id;
    phase = 'the run';

    // Meanwhile: two uploads within the limits (2 × 20 MB beside the document), and two far over them
    // (10 × 24 MB), all at once.
    const uploads = Promise.all([upload(2, 20), upload(2, 20), upload(10, 24), upload(10, 24)]).then(
      (answers) => {
        phase = 'the run, after the uploads';
        return answers;
      },
    );

    type Result = { status: string; summary: { total_requests: number; failed_requests: number } };
    let result!: Result;
    // Past the deadline or over the ceiling the test goes on to the expectations below, which say why.
    await waitFor(
      'the run to end',
      async () => {
        result = (await api<Result>('GET', `/api/functional/get-test-result/${id}`)).json;
        return result.status !== 'running' || peak.mb > MEMORY_CEILING_MB ? true : undefined;
      },
      75_000,
      1000,
    ).catch(() => undefined);
    phase = 'after the run';
    // Over the ceiling already: no need to wait for the rest.
    expect(peak.mb, `peak during ${peak.during}`).toBeLessThan(MEMORY_CEILING_MB);
    const answers = await uploads;
    await new Promise((r) => setTimeout(r, 1000));
    const after = residentMb(server.child.pid!);
    // What was measured, for the ADR's numbers.
    console.info(
      `memory-bounds: peak ${peak.mb.toFixed(0)} MB during ${peak.during}; ${after.toFixed(0)} MB a second after; ` +
        `${result.summary.total_requests} calls; uploads ${answers.map((a) => a.status).join(', ')}`,
    );

    expect(peak.mb, `peak during ${peak.during}`).toBeLessThan(MEMORY_CEILING_MB);
    expect(result.status).toBe('failed');
    expect(result.summary.total_requests).toBe(apis * 4 * 2);
    expect(result.summary.failed_requests).toBe(apis * 4 * 2);
    expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
    for (const refused of answers.slice(2)) {
      expect(refused.status).toBe(413);
      expect(refused.detail).toMatch(/at most 50 MB per upload/);
    }
    // Nothing of the uploads is left on disk.
    expect(readdirSync(join(dataDir, 'uploads'))).toEqual([]);
  }, 90_000);
});
