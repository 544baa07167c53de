/**
 * What the agent's tests stand in for the server with (docs/adr/0023-agents-over-http.md): an HTTP
 * server that answers the agent protocol as the real one does — registration, heartbeats, jobs taken
 * from a per-agent queue, numbered shard events kept once each, leave — in memory. Test code only; the
 * real server with real agents is tested in apps/server/test/agents*.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AGENT_HEARTBEAT_MS,
  AGENT_HEARTBEAT_TTL_MS,
  agentPaths,
  type AgentHeartbeatRequest,
  type AgentJob,
  type AgentRegisterRequest,
  type AgentRegistration,
  type ShardEvent,
  type ShardEventsPost,
} from './protocol';
import { REGISTER_PATH } from './register';

/** What the stand-in knows of one agent. */
export interface FakeAgent {
  registration: AgentRegistration;
  /** The last heartbeat (null once it said it is offline), and when it came. */
  heartbeat: (AgentHeartbeatRequest & { at: number }) | null;
  /** Every heartbeat's run_id, in order. */
  beats: (string | null)[];
}

export interface AgentServer {
  url: string;
  /** Every registration body received, in order. */
  readonly received: AgentRegisterRequest[];
  /** The registrations answered, in order. */
  readonly answered: AgentRegistration[];
  /** The agent ids that left (DELETE), in order. */
  readonly unregistered: string[];
  readonly agents: Map<string, FakeAgent>;
  /** Every events post received (including those sent again), in order: for the retry tests. */
  readonly posts: { runId: string; agentId: string; body: ShardEventsPost }[];
  /** Answer every registration with this status and body instead (e.g. 401, 503). */
  refuse(status: number, body: unknown): void;
  /** Fail the next `count` events posts with this status (e.g. 503), after keeping them or not. */
  failPosts(count: number, status: number, keep: boolean): void;
  /** Queues a job for the agent; `runId` accepts its events from then on. */
  queue(agentId: string, job: AgentJob): void;
  /** The run was stopped: heartbeats and events answers say so. */
  stop(runId: string): void;
  /** The run's events as kept (each number once, in order), across agents. */
  events(runId: string): ShardEvent[];
  /** Resolves with the run's kept events once `until` holds for them; throws after `timeoutMs`. */
  waitForEvents(
    runId: string,
    until: (events: ShardEvent[]) => boolean,
    timeoutMs?: number,
  ): Promise<ShardEvent[]>;
  close(): Promise<void>;
}

/** Starts the stand-in; only `token` is accepted. */
export async function startAgentServer(options: {
  token: string;
  heartbeatTtlMs?: number;
}): Promise<AgentServer> {
  const received: AgentRegisterRequest[] = [];
  const answered: AgentRegistration[] = [];
  const unregistered: string[] = [];
  const agents = new Map<string, FakeAgent>();
  const posts: AgentServer['posts'] = [];
  const jobs = new Map<string, AgentJob[]>();
  const waiting = new Map<string, () => void>();
  const runs = new Map<string, { events: ShardEvent[]; last: Map<string, number>; stopped: boolean }>();
  let refusal: { status: number; body: unknown } | null = null;
  let failing: { count: number; status: number; keep: boolean } | null = null;

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const runOf = (runId: string) => {
    let run = runs.get(runId);
    if (run === undefined) runs.set(runId, (run = { events: [], last: new Map(), stopped: false }));
    return run;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '';
    if (req.method === 'POST' && url === REGISTER_PATH) {
      if (refusal !== null) return send(res, refusal.status, refusal.body);
      if (req.headers.authorization !== `Bearer ${options.token}`)
        return send(res, 401, { detail: 'The API token is not valid', code: 'UNAUTHORIZED' });
      received.push(JSON.parse(text) as AgentRegisterRequest);
      const agentId = `agt_${randomUUID().slice(0, 8)}`;
      const registration: AgentRegistration = {
        agent_id: agentId,
        name: received.at(-1)!.name,
        heartbeat_ms: AGENT_HEARTBEAT_MS,
        heartbeat_ttl_ms: options.heartbeatTtlMs ?? AGENT_HEARTBEAT_TTL_MS,
        job_wait_ms: 2000,
        max_events_per_post: 50,
        max_post_bytes: 1024 * 1024,
        paths: agentPaths(agentId),
      };
      agents.set(agentId, { registration, heartbeat: null, beats: [] });
      answered.push(registration);
      return send(res, 200, registration);
    }
    const match = /^\/api\/agents\/([^/]+)(\/heartbeat|\/jobs\/next|\/runs\/([^/]+)\/events)?$/.exec(url);
    const agent = match === null ? undefined : agents.get(decodeURIComponent(match[1]!));
    if (match === null) return send(res, 404, { detail: 'Route not found', code: 'NOT_FOUND' });
    if (req.headers.authorization !== `Bearer ${options.token}`)
      return send(res, 401, { detail: 'The API token is not valid', code: 'UNAUTHORIZED' });
    if (agent === undefined)
      return send(res, 404, { detail: 'No agent of yours has this id', code: 'AGENT_NOT_FOUND' });
    const agentId = agent.registration.agent_id;
    const what = match[2];
    if (req.method === 'DELETE' && what === undefined) {
      unregistered.push(agentId);
      agents.delete(agentId);
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'PUT' && what === '/heartbeat') {
      const beat = JSON.parse(text) as AgentHeartbeatRequest;
      agent.beats.push(beat.run_id);
      agent.heartbeat = beat.offline === true ? null : { ...beat, at: Date.now() };
      const run = beat.run_id === null ? undefined : runs.get(beat.run_id);
      return send(res, 200, { stop: beat.run_id !== null && (run === undefined || run.stopped) });
    }
    if (req.method === 'POST' && what === '/jobs/next') {
      const { wait_ms } = JSON.parse(text) as { wait_ms: number };
      const deadline = Date.now() + wait_ms;
      let gone = false;
      res.on('close', () => (gone = true));
      for (;;) {
        const queued = jobs.get(agentId) ?? [];
        if (gone) return;
        if (queued.length > 0) return send(res, 200, { job: queued.shift() });
        const left = deadline - Date.now();
        if (left <= 0) return send(res, 200, { job: null });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.set(agentId, () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
    if (req.method === 'POST' && what !== undefined && match[3] !== undefined) {
      const runId = decodeURIComponent(match[3]);
      const run = runs.get(runId);
      if (run === undefined)
        return send(res, 404, { detail: 'No run of this agent has this id', code: 'AGENT_RUN_NOT_FOUND' });
      const body = JSON.parse(text) as ShardEventsPost;
      posts.push({ runId, agentId, body });
      const fail = failing !== null && failing.count > 0 ? failing : null;
      if (fail !== null) fail.count -= 1;
      if (fail === null || fail.keep) {
        const last = run.last.get(agentId) ?? 0;
        if (body.first_seq > last + 1)
          return send(res, 409, { detail: `events from ${last + 1} are missing`, code: 'AGENT_EVENTS_GAP' });
        body.events.forEach((event, i) => {
          if (body.first_seq + i > last) run.events.push(event);
        });
        run.last.set(agentId, Math.max(last, body.first_seq + body.events.length - 1));
      }
      if (fail !== null) return send(res, fail.status, { detail: 'Try again', code: 'UNAVAILABLE' });
      return send(res, 200, { accepted_through: run.last.get(agentId), stop: run.stopped });
    }
    return send(res, 404, { detail: 'Route not found', code: 'NOT_FOUND' });
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const events = (runId: string): ShardEvent[] => [...(runs.get(runId)?.events ?? [])];
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answered,
    unregistered,
    agents,
    posts,
    refuse(status, body) {
      refusal = { status, body };
    },
    failPosts(count, status, keep) {
      failing = { count, status, keep };
    },
    queue(agentId, job) {
      runOf(job.kind === 'shard' ? job.shard.run_id : job.locust_worker.run_id);
      const list = jobs.get(agentId) ?? [];
      list.push(job);
      jobs.set(agentId, list);
      waiting.get(agentId)?.();
    },
    stop(runId) {
      runOf(runId).stopped = true;
    },
    events,
    async waitForEvents(runId, until, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = events(runId);
        if (until(now)) return now;
        if (Date.now() > deadline)
          throw new Error(
            `run ${runId} did not get the awaited events in ${timeoutMs} ms: ${now.map((e) => e.type).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of waiting.values()) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
