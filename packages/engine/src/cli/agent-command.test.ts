import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShardJob } from '../agent/protocol';
import { startAgentServer, type AgentServer } from '../agent/test-support';
import { testPlan } from '../testing/target';
import { agentCommand } from './agent-command';

/*
 * `aqa agent`'s own options and exit codes (docs/adr/0021-load-agents.md, agent side 8), in this
 * process: --idle-timeout refused in words, --once ending with 1 when its shard failed, and
 * --idle-timeout ending with 0. The agent itself is tested in ../agent/agent.test.ts.
 */

const TOKEN = 'aqa_agent_command_token';
let server: AgentServer;

beforeAll(async () => {
  server = await startAgentServer({ token: TOKEN });
});

afterAll(async () => {
  await server.close();
});

interface Output {
  stdout: string;
  stderr: string;
}

/** `aqa agent <args>` in this process; what it writes is caught in `output` while it runs. */
async function aqaAgent(args: string[], output: Output): Promise<number> {
  const catcher = (stream: keyof Output) => (chunk: string | Uint8Array) => {
    output[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(catcher('stdout'));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(catcher('stderr'));
  try {
    return await agentCommand(args, undefined);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

const base = ['--server', '', '--token', TOKEN, '--cores', '1'];
const withServer = (args: string[]): string[] => args.map((a, i) => (i === 1 ? server.url : a));

describe('aqa agent --once and --idle-timeout', () => {
  it('refuses an --idle-timeout that is not whole seconds from 1 to a week, in words (exit 2)', async () => {
    for (const value of ['0', 'soon', '1.5', '604801']) {
      const output = { stdout: '', stderr: '' };
      expect(await aqaAgent([...withServer(base), '--idle-timeout', value], output)).toBe(2);
      expect(output.stderr).toContain(
        `--idle-timeout must be a whole number of seconds from 1 to 604800, not "${value}"`,
      );
    }
  });

  it('--once exits 1 when its one shard failed; --idle-timeout exits 0 after the idle time', async () => {
    const before = server.answered.length;
    const output = { stdout: '', stderr: '' };
    const exit = aqaAgent([...withServer(base), '--name', 'once-cli', '--once'], output);
    for (let i = 0; server.answered.length === before && i < 200; i++)
      await new Promise((r) => setTimeout(r, 25));
    const registration = server.answered.at(-1)!;
    const runId = randomUUID();
    const job: ShardJob = {
      run_id: runId,
      agent_index: 0,
      agent_count: 1,
      data_seed: 1,
      // A plan without a request cannot run: the shard fails.
      plan: { ...testPlan([{ url: 'http://127.0.0.1:9/x' }]), urls: [] },
      duration_seconds: 1,
      users: 1,
      first_user: 0,
      sequence_split: { offset: 0, stride: 1 },
      start_at_epoch_ms: Date.now() + 500,
      guard: null,
    };
    server.queue(registration.agent_id, { kind: 'shard', shard: job });
    expect(await exit).toBe(1);
    expect(output.stdout).toContain(`Shard 1/1 of run ${runId} failed: the plan cannot run`);
    expect(output.stdout).toContain("Agent once-cli ran its one shard (failed) and left the server's list");
    expect(server.unregistered).toContain(registration.agent_id);

    const idle = { stdout: '', stderr: '' };
    expect(await aqaAgent([...withServer(base), '--name', 'idle-cli', '--idle-timeout', '1'], idle)).toBe(0);
    expect(idle.stdout).toMatch(/registered with .* as agt_\w+; waiting for shards/);
    expect(idle.stdout).toContain(', for 1 s at most without one');
    expect(idle.stdout).toContain("Agent idle-cli took no shard for 1 s and left the server's list");
  });

  it('says the server refused it and exits 2 when its agent is removed from the list while it runs', async () => {
    const before = server.answered.length;
    const output = { stdout: '', stderr: '' };
    const exit = aqaAgent([...withServer(base), '--name', 'removed-cli'], output);
    for (let i = 0; server.answered.length === before && i < 200; i++)
      await new Promise((r) => setTimeout(r, 25));
    server.agents.delete(server.answered.at(-1)!.agent_id);
    expect(await exit).toBe(2);
    expect(output.stderr).toContain('with 404: No agent of yours has this id');
    expect(output.stdout).toContain('Agent removed-cli was refused by the server and stopped');
  });
});
