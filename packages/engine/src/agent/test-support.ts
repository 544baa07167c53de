/**
 * What the agent's tests stand in for the server with (docs/adr/0021-load-agents.md): an HTTP
 * endpoint that answers POST /api/agents/register as the server does, and a reader of a run's shard
 * event stream. Test code only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import {
  AGENT_HEARTBEAT_MS,
  AGENT_HEARTBEAT_TTL_MS,
  agentQueueName,
  runStreamKey,
  type AgentRegisterRequest,
  type AgentRegistration,
  type ShardEvent,
} from './protocol';
import { REGISTER_PATH } from './register';

export interface RegistrationServer {
  url: string;
  /** Every registration body received, in order. */
  readonly received: AgentRegisterRequest[];
  /** The registrations answered, in order. */
  readonly answered: AgentRegistration[];
  /** The agent ids unregistered (DELETE /api/agents/{id}), in order. */
  readonly unregistered: string[];
  /** Answer every registration with this status and body instead (e.g. 401, 503). */
  refuse(status: number, body: unknown): void;
  close(): Promise<void>;
}

/** Registers agents with the token `token` on the Redis `redisUrl` under the BullMQ prefix `prefix`. */
export async function startRegistrationServer(options: {
  redisUrl: string;
  token: string;
  prefix: string;
  heartbeatTtlMs?: number;
}): Promise<RegistrationServer> {
  const received: AgentRegisterRequest[] = [];
  const answered: AgentRegistration[] = [];
  const unregistered: string[] = [];
  let refusal: { status: number; body: unknown } | null = null;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const forget = /^\/api\/agents\/([^/]+)$/.exec(req.url ?? '');
    if (
      req.method === 'DELETE' &&
      forget !== null &&
      req.headers.authorization === `Bearer ${options.token}`
    ) {
      unregistered.push(decodeURIComponent(forget[1]!));
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'POST' || req.url !== REGISTER_PATH)
      return send(res, 404, { detail: 'Route not found', code: 'NOT_FOUND' });
    if (refusal !== null) return send(res, refusal.status, refusal.body);
    if (req.headers.authorization !== `Bearer ${options.token}`)
      return send(res, 401, { detail: 'The API token is not valid', code: 'UNAUTHORIZED' });
    received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AgentRegisterRequest);
    const agentId = randomUUID();
    const registration: AgentRegistration = {
      agent_id: agentId,
      name: received.at(-1)!.name,
      redis_url: options.redisUrl,
      queue: agentQueueName(agentId),
      prefix: options.prefix,
      heartbeat_ms: AGENT_HEARTBEAT_MS,
      heartbeat_ttl_ms: options.heartbeatTtlMs ?? AGENT_HEARTBEAT_TTL_MS,
    };
    answered.push(registration);
    send(res, 200, registration);
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answered,
    unregistered,
    refuse(status, body) {
      refusal = { status, body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The run's shard events from the start of its stream, read (blocking) until `until` holds for what
 * was read; throws with what was read after `timeoutMs`.
 */
export async function readShardEvents(
  redis: Redis,
  runId: string,
  until: (events: ShardEvent[]) => boolean,
  timeoutMs = 15_000,
): Promise<ShardEvent[]> {
  const key = runStreamKey(runId);
  const events: ShardEvent[] = [];
  let last = '0';
  const deadline = Date.now() + timeoutMs;
  while (!until(events)) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(
        `the stream ${key} did not hold the awaited events in ${timeoutMs} ms: ${events.map((e) => e.type).join(', ')}`,
      );
    const answer = await redis.xread('COUNT', 1000, 'BLOCK', Math.min(left, 1000), 'STREAMS', key, last);
    for (const [, entries] of answer ?? []) {
      for (const [id, fields] of entries) {
        last = id;
        events.push(JSON.parse(fields[1]!) as ShardEvent);
      }
    }
  }
  return events;
}
