import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPlan, TestTarget } from '../testing/target';
import type { ShardJob } from './protocol';
import { startAgentServer, type AgentServer } from './test-support';

/*
 * The one-file aqa.mjs the server serves (build.mjs buildStandaloneCli), alone in a folder with no
 * node_modules, as a real `aqa agent` process (docs/adr/0021-load-agents.md,
 * docs/adr/0023-agents-over-http.md): everything it needs is inside it, and it speaks only HTTP to the
 * server — no Redis client is in it at all.
 */

const TOKEN = 'aqa_bundle_agent_token';
const dir = mkdtempSync(join(tmpdir(), 'aqa-agent-bundle-'));
let server: AgentServer;
const target = new TestTarget();
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  const build = (await import(new URL('../../build.mjs', import.meta.url).href)) as {
    ensureBuilt: () => Promise<string>;
  };
  copyFileSync(join(await build.ensureBuilt(), 'aqa-standalone.mjs'), join(dir, 'aqa.mjs'));
  server = await startAgentServer({ token: TOKEN });
  await target.start();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await server.close();
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `node aqa.mjs …` in the folder, with only PATH and `env`. */
function aqa(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [join(dir, 'aqa.mjs'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function waitForOutput(run: Running, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.stdout().includes(text)) {
    if (Date.now() > deadline || run.child.exitCode !== null)
      throw new Error(`no "${text}" from aqa agent: ${run.stdout()} ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('aqa agent in the one-file aqa.mjs', () => {
  it('has its help, refuses a wrong token with exit 2, and runs a shard as a real process until SIGTERM (exit 0)', async () => {
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const help = aqa(['agent', '--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toContain('aqa agent --server URL [--token T] [--name NAME] [--cores N]');
    const main = aqa(['--help']);
    expect(await main.exited).toBe(0);
    expect(main.stdout()).toContain('aqa agent --server URL');

    const refused = aqa(['agent', '--server', server.url], { AQA_TOKEN: 'wrong' });
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toContain(`the server at ${server.url} refused the token (401`);

    const agent = aqa(['agent', '--name', 'bundled', '--cores', '1'], {
      AQA_SERVER: server.url,
      AQA_TOKEN: TOKEN,
    });
    await waitForOutput(agent, 'waiting for shards');
    const registration = server.answered.at(-1)!;
    expect(agent.stdout()).toContain(
      `Agent bundled registered with ${server.url} as ${registration.agent_id}; waiting for shards`,
    );
    target.reset();
    const runId = randomUUID();
    const job: ShardJob = {
      run_id: runId,
      agent_index: 0,
      agent_count: 1,
      plan: testPlan([{ url: `${target.origin}/bundled` }], { concurrent_users: 2 }),
      data_seed: 1,
      duration_seconds: 2,
      users: 2,
      first_user: 0,
      sequence_split: { offset: 0, stride: 1 },
      start_at_epoch_ms: Date.now() + 800,
      guard: null,
    };
    server.queue(registration.agent_id, { kind: 'shard', shard: job });
    const events = await server.waitForEvents(runId, (ev) =>
      ev.some((e) => e.type === 'done' || e.type === 'failed'),
    );
    expect(events[0]).toMatchObject({ type: 'ready', shards: 1 });
    expect(events.at(-1)).toEqual({
      type: 'done',
      agent_index: 0,
      status: 'completed',
      total_requests: target.count,
    });
    expect(target.count).toBeGreaterThan(0);
    await waitForOutput(agent, 'completed:');
    expect(agent.stdout()).toContain(
      `Shard 1/1 of run ${runId} started: 2 users (1–2) on 1 worker thread(s) for 2 s`,
    );
    expect(agent.stdout()).toContain(
      `Shard 1/1 of run ${runId} completed: ${target.count.toLocaleString('en-US')} requests`,
    );
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    expect(agent.stdout()).toContain('Agent bundled stopped');
    expect(agent.stderr()).not.toMatch(/Error|warning/i);
  });

  it('holds no Redis client: neither BullMQ nor ioredis is bundled, and it is smaller for it', () => {
    const text = readFileSync(join(dir, 'aqa.mjs'), 'utf8');
    // What BullMQ's and ioredis's code says of itself, and the Redis commands they send.
    for (const mark of ['bullmq', 'ioredis', 'XADD', 'BRPOPLPUSH', 'redis://'])
      expect(text.includes(mark), `aqa.mjs contains ${mark}`).toBe(false);
    // 5.5 MB with BullMQ and ioredis (issue #23); 4.0 MB without them, 4.7 MB once RE2 (re2js, with its
    // Unicode tables) ran user patterns in the CLI and in both embedded workers (docs/adr/0022-linear-time-patterns.md),
    // 6.0 MB once the Postman sandbox (QuickJS as WebAssembly, and Chai run inside it) ran collections'
    // scripts in `aqa test` (docs/adr/0028-postman-sandbox.md): BullMQ and ioredis would add 1.5 MB more.
    expect(statSync(join(dir, 'aqa.mjs')).size).toBeLessThan(6_500_000);
  });
});
