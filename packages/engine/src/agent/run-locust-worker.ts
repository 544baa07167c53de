/**
 * A Locust worker job on a load agent (docs/adr/0021-load-agents.md "Locust master/worker"): the agent
 * writes the run's locustfile into a folder of its own and runs `locust --worker`, which dials the
 * Locust master the server runs. Locust carries the figures (worker → master); the agent's events only
 * say that the worker started, how it ended, or why it could not run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { commandText, resolveToolCommand, runCaptured } from '../adapters/command';
import { LOCUST_AGENT_ENV, LOCUST_WORKER_REQUESTS_LINE } from '../adapters/locust-distributed';
import { ToolProcess } from '../adapters/process';
import { lastLinesOf } from '../adapters/tool-failure';
import { TargetGuard } from '../guard';
import type { EngineLogger } from '../types';
import type { LocustWorkerJob } from './protocol';
import type { ShardOutcome } from './run-shard';
import type { ShardEventSink } from './shard-events';

export interface LocustWorkerContext {
  /** Where the job's events go (the run's events on the server). */
  events: ShardEventSink;
  agentId: string;
  /** The agent's name, in the words of a failure. */
  agentName: string;
  logger: EngineLogger;
  /** Aborted when the run is stopped or the agent stops. */
  signal: AbortSignal;
  /** Where LOCUST_CMD and PATH are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Called once the worker process started. */
  onStarted?: () => void;
}

/**
 * After a stop, how long the worker has to end by itself. The server tells the agents to stop once its
 * master has ended, which quits its workers after their last reports; a worker still running then never
 * reached the master (or lost it), and is ended.
 */
export const WORKER_STOP_GRACE_MS = 3000;
/** A worker still running this long after the run's planned end has lost its master: it is ended. */
export const WORKER_LATE_MS = 60_000;
/** How long `locust --version` may take (a Python start on a busy machine). */
const VERSION_TIMEOUT_MS = 20_000;

/** What is wrong with a job's data, or null: it comes from the server, over the network. */
export function locustWorkerJobProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return 'the job has no data';
  const j = data as Partial<Record<keyof LocustWorkerJob, unknown>>;
  if (typeof j.run_id !== 'string' || j.run_id === '') return 'run_id is missing';
  for (const f of ['agent_index', 'agent_count', 'master_port', 'users', 'ends_at_epoch_ms'] as const)
    if (typeof j[f] !== 'number' || !Number.isFinite(j[f])) return `${f} is not a number`;
  if (typeof j.master_host !== 'string' || j.master_host === '') return 'master_host is missing';
  if (!Array.isArray(j.origins) || !j.origins.every((o) => typeof o === 'string'))
    return 'origins is not a list of strings';
  const files = j.files as { name?: unknown; content?: unknown }[] | undefined;
  if (
    !Array.isArray(files) ||
    files.length === 0 ||
    // A file name is a plain name: the job must not write outside the worker's folder.
    !files.every(
      (f) =>
        typeof f.name === 'string' &&
        f.name === basename(f.name) &&
        !['', '.', '..'].includes(f.name) &&
        typeof f.content === 'string',
    )
  )
    return 'files is not a list of { name, content } with plain file names';
  if (typeof j.locustfile !== 'string' || !files.some((f) => f.name === j.locustfile))
    return 'locustfile is not one of files';
  return null;
}

/** Runs one Locust worker job to its end; never throws (a failure is written to the stream and answered). */
export async function runLocustWorker(job: LocustWorkerJob, ctx: LocustWorkerContext): Promise<ShardOutcome> {
  const { logger } = ctx;
  const env = ctx.env ?? process.env;
  const { events } = ctx;
  const failed = async (message: string): Promise<ShardOutcome> => {
    events.write({ type: 'failed', agent_index: job.agent_index, message });
    await events.flushed();
    return { status: 'failed', total_requests: 0, message };
  };
  const agent = `agent ${ctx.agentName}`;

  if (Date.now() > job.ends_at_epoch_ms)
    return failed(
      `the Locust worker job reached ${agent} ${Math.round((Date.now() - job.ends_at_epoch_ms) / 1000)} s after its run should have ended`,
    );

  // The server checked these hosts; this machine resolves names itself, so it asks its own guard too.
  if (job.guard !== null) {
    const guard = TargetGuard.fromSettings(job.guard);
    for (const origin of job.origins) {
      const decision = await guard.checkUrl(origin);
      if (!decision.allowed)
        return failed(`the target guard of ${agent} refuses ${origin}: ${decision.reason}`);
    }
  }

  const cmd = await resolveToolCommand('locust', { env, baseDir: process.cwd() });
  const notInstalled = `Locust is not installed on ${agent}: apt-get install python3-locust (or set LOCUST_CMD to the command that runs it)`;
  if (!cmd.found) return failed(`${notInstalled}; ${commandText(cmd.argv)} was not found`);
  const version = await runCaptured([...cmd.argv, '--version'], { env, timeoutMs: VERSION_TIMEOUT_MS });
  if (version.code !== 0) {
    const said = lastLinesOf(version.output, 1) || (version.timedOut ? 'no answer in time' : 'nothing');
    return failed(`${notInstalled}; ${commandText(cmd.argv)} --version answered: ${said}`);
  }
  if (ctx.signal.aborted) {
    events.write({ type: 'done', agent_index: job.agent_index, status: 'stopped', total_requests: 0 });
    await events.flushed();
    return { status: 'stopped', total_requests: 0 };
  }

  const dir = mkdtempSync(join(tmpdir(), 'aqa-locust-worker-'));
  try {
    for (const file of job.files) writeFileSync(join(dir, file.name), file.content);
    const argv = [
      ...cmd.argv,
      '-f',
      job.locustfile,
      '--worker',
      '--master-host',
      job.master_host,
      '--master-port',
      String(job.master_port),
      // Failed requests are data: the worker's exit code says only whether it ran.
      '--exit-code-on-error',
      '0',
    ];
    const proc = new ToolProcess(argv, {
      cwd: dir,
      env: { ...env, [LOCUST_AGENT_ENV]: String(job.agent_index) },
    });
    let reported = 0;
    proc.onLine((line) => {
      if (line.startsWith(LOCUST_WORKER_REQUESTS_LINE))
        reported = Number(line.slice(LOCUST_WORKER_REQUESTS_LINE.length).trim()) || 0;
    });
    events.write({ type: 'ready', agent_index: job.agent_index, agent_id: ctx.agentId, shards: 1 });
    ctx.onStarted?.();

    const timers: NodeJS.Timeout[] = [];
    const end = (why: string): void => {
      if (!proc.running) return;
      logger.warn({ run_id: job.run_id }, `ending the Locust worker: ${why}`);
      void proc.terminate(2000, 'SIGTERM');
    };
    const onAbort = (): void => {
      timers.push(setTimeout(() => end('its master did not end it after the stop'), WORKER_STOP_GRACE_MS));
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(
        () => end('it still runs a minute after its run should have ended'),
        Math.max(0, job.ends_at_epoch_ms - Date.now()) + WORKER_LATE_MS,
      ),
    );
    const exit = await proc.exited;
    for (const t of timers) clearTimeout(t);
    ctx.signal.removeEventListener('abort', onAbort);

    if (exit.spawnError !== undefined)
      return failed(`the Locust worker on ${agent} could not be started: ${exit.spawnError.message}`);
    if (exit.code !== 0 && !ctx.signal.aborted) {
      const how =
        exit.code === null ? `was ended by ${exit.signal ?? 'a signal'}` : `exited with code ${exit.code}`;
      return failed(`the Locust worker on ${agent} ${how}: ${proc.tail(5) || 'it printed nothing'}`);
    }
    const status = ctx.signal.aborted ? 'stopped' : 'completed';
    events.write({ type: 'done', agent_index: job.agent_index, status, total_requests: reported });
    await events.flushed();
    return { status, total_requests: reported };
  } catch (error) {
    return failed(`the Locust worker on ${agent} could not be started: ${(error as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
