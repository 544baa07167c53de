/**
 * `aqa agent` (docs/adr/0021-load-agents.md, docs/adr/0023-agents-over-http.md): this machine becomes a
 * load agent of a server. It registers with an API token of the agent scope, then runs the shards of runs the server sends it until Ctrl-C or
 * SIGTERM, which stop the current shard gracefully (its figures still reach the server) and exit 0.
 * With --once it ends after one shard, and with --idle-timeout after that long without one, leaving
 * the server's list: a pod of a Kubernetes Job sized for one run then completes (docs/kubernetes.md §3).
 *
 * Exit codes: 0 stopped by a signal, its one shard completed or stopped, or idle for the idle time;
 * 1 its one shard (--once) failed; 2 it could not start (bad arguments, the server cannot be reached,
 * the token or the registration refused) or the server refused it later (its token revoked).
 */
import { parseArgs } from 'node:util';
import { runAgent, type AgentEnd } from '../agent/agent';
import { AgentStartError } from '../agent/register';
import type { ShardJob } from '../agent/protocol';
import type { ShardOutcome } from '../agent/run-shard';
import type { EngineLogger } from '../types';
import { RemoteError, remoteTarget, SERVER_ENV, TOKEN_ENV } from './remote-client';
import { stopOnSignals } from './signals';

export const AGENT_HELP = `aqa agent — run the load of a server's runs on this machine

Usage:
  aqa agent --server URL [--token T] [--name NAME] [--cores N] [--once] [--idle-timeout SECONDS]

The agent registers with the AnybodyQA server, then waits for shards: a run started on N agents gives
each agent its share of the users, and the agents start together and stream their measurements back
to the server, which merges them into one result. It speaks only HTTP(S) to the server and needs
nothing of it but its address and an agent token. Ctrl-C or SIGTERM stops the shard it is running (its
figures still reach the server) and exits 0.

Options:
  --server URL   the AnybodyQA server, e.g. https://aqa.example.com (or ${SERVER_ENV})
  --token T      an API token with the scope "Load agent" (Settings → API tokens); runs of its
                 user may use this agent (or ${TOKEN_ENV})
  --name NAME    the agent's name on the server (default: this machine's host name)
  --cores N      worker threads a shard may use (default: one per core)
  --once         run one shard, then leave the server's list of agents and exit (a Job's pod)
  --idle-timeout SECONDS
                 leave the list and exit 0 after SECONDS (1 to 604800) without a shard (from
                 the start, and from the end of each shard)
  -h, --help     this help

Exit codes: 0 stopped by Ctrl-C or SIGTERM, its one shard (--once) completed or stopped, or idle for
--idle-timeout; 1 its one shard failed; 2 it could not start (bad arguments, the server cannot be
reached, the token or the registration refused) or the server refused it later (its token revoked).
`;

class UsageError extends Error {}

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s);

/** The agent's log on stderr: warnings and errors in one line each; the shard lines say the rest. */
const stderrLogger: EngineLogger = {
  info: () => undefined,
  warn: (_obj, msg) => err(`aqa agent: ${msg ?? 'warning'}\n`),
  error: (_obj, msg) => err(`aqa agent: ${msg ?? 'error'}\n`),
};

const shardName = (job: Pick<ShardJob, 'agent_index' | 'agent_count' | 'run_id'>): string =>
  `Shard ${job.agent_index + 1}/${job.agent_count} of run ${job.run_id}`;

function endLine(
  job: Pick<ShardJob, 'agent_index' | 'agent_count' | 'run_id'>,
  outcome: ShardOutcome,
): string {
  if (outcome.status === 'failed')
    return `${shardName(job)} failed: ${outcome.message ?? 'no reason given'}\n`;
  return `${shardName(job)} ${outcome.status}: ${outcome.total_requests.toLocaleString('en-US')} requests\n`;
}

/** `aqa agent …` (argv without the word `agent`); resolves with the exit code once the agent stopped. */
export async function agentCommand(argv: string[], workerEntry: URL | undefined): Promise<number> {
  let server;
  let name: string | undefined;
  let cores: number | undefined;
  let once: boolean;
  let idleTimeoutMs: number | undefined;
  try {
    const { values: v, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        name: { type: 'string' },
        cores: { type: 'string' },
        once: { type: 'boolean', default: false },
        'idle-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (v.help) {
      out(AGENT_HELP);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
    server = remoteTarget(v, process.env, 'aqa agent takes its shards from a server');
    if (v.name !== undefined) {
      name = v.name.trim();
      if (name === '' || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
    }
    if (v.cores !== undefined) {
      cores = Number(v.cores);
      if (!Number.isInteger(cores) || cores < 1)
        throw new UsageError(`--cores must be a whole number of at least 1, not ${JSON.stringify(v.cores)}`);
    }
    once = v.once;
    if (v['idle-timeout'] !== undefined) idleTimeoutMs = idleTimeout(v['idle-timeout']);
  } catch (e) {
    if (
      e instanceof UsageError ||
      e instanceof RemoteError ||
      (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err(`aqa agent: ${(e as Error).message}\n(aqa agent --help lists the options)\n`);
      return 2;
    }
    throw e;
  }

  let agent;
  try {
    agent = await runAgent({
      server: server.server,
      token: server.token,
      name,
      cores,
      once,
      idleTimeoutMs,
      logger: stderrLogger,
      workerEntry,
      onShardStart: (job, shards) =>
        out(
          `${shardName(job)} started: ${job.users.toLocaleString('en-US')} users (${job.first_user + 1}–${job.first_user + job.users}) on ${shards.length} worker thread(s) for ${job.duration_seconds} s\n`,
        ),
      onShardEnd: (job, outcome) => out(endLine(job, outcome)),
      onLocustWorkerStart: (job) =>
        out(
          `${shardName(job)} started: a Locust worker of the master at ${job.master_host}:${job.master_port} (about ${job.users.toLocaleString('en-US')} users)\n`,
        ),
      onLocustWorkerEnd: (job, outcome) => out(endLine(job, outcome)),
    });
  } catch (e) {
    if (e instanceof AgentStartError) {
      err(`aqa agent: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const r = agent.registration;
  const waits = once ? 'waiting for one shard' : 'waiting for shards';
  const until = idleTimeoutMs === undefined ? '' : `, for ${idleTimeoutMs / 1000} s at most without one`;
  out(`Agent ${r.name} registered with ${server.server} as ${r.agent_id}; ${waits}${until}\n`);
  const release = stopOnSignals('aqa agent: stopping (the current shard ends gracefully)…\n', 2, () =>
    agent.stop(),
  );
  const end = await agent.closed;
  release();
  if (end.reason === 'refused') {
    err(`aqa agent: ${end.message}\n`);
    out(`Agent ${r.name} ${endWords(end)}\n`);
    return 2;
  }
  out(`Agent ${r.name} ${endWords(end)}\n`);
  return end.reason === 'once' && end.outcome.status === 'failed' ? 1 : 0;
}

/** The last line: why the agent ended. */
function endWords(end: AgentEnd): string {
  if (end.reason === 'once') return `ran its one shard (${end.outcome.status}) and left the server's list`;
  if (end.reason === 'idle') return `took no shard for ${end.idle_ms / 1000} s and left the server's list`;
  if (end.reason === 'refused') return 'was refused by the server and stopped';
  return 'stopped';
}

/**
 * --idle-timeout SECONDS in ms: whole seconds from 1 to a week (Node's timers hold about 24 days; a
 * longer one would fire at once).
 */
function idleTimeout(text: string): number {
  const seconds = Number(text);
  if (!/^\d+$/.test(text.trim()) || seconds < 1 || seconds > MAX_IDLE_SECONDS)
    throw new UsageError(
      `--idle-timeout must be a whole number of seconds from 1 to ${MAX_IDLE_SECONDS}, not ${JSON.stringify(text)}`,
    );
  return seconds * 1000;
}

const MAX_IDLE_SECONDS = 7 * 24 * 3600;
