import type { ShardEvent, ShardEventsAnswer } from '@aqa/engine';
import type { Redis } from 'ioredis';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { runAgentsKey, runEventSeqKey, runStopKey, runStreamKey } from './agent-keys';

export const AGENT_EVENT_MESSAGES = {
  runNotFound:
    'No run of this agent has this id: it ended, was never given to this agent, or is not of your runs.',
} as const;

/*
 * Keeps one post of numbered events, atomically (docs/adr/0023-agents-over-http.md): the agent must be
 * one of the run's agents; numbers at or below its last kept one were kept before and are skipped; a
 * post that starts after the next number leaves a gap and keeps nothing; the rest is appended to the
 * run's stream in order. The run's keys expire with its agents' hash, so a run whose server died
 * leaves nothing behind. KEYS: run agents, run seq, run stream, run stop. ARGV: agent id, first number,
 * the events' JSON. Answers { 1, last kept, stopped 0/1 }, { -1 } not the agent's run, or { -2, last }
 * a gap.
 */
const APPEND_SCRIPT = `
local agents, seqs, stream, stop = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local agent = ARGV[1]
if redis.call('HEXISTS', agents, agent) == 0 then return { -1, 0, 0 } end
local last = tonumber(redis.call('HGET', seqs, agent) or '0')
local first = tonumber(ARGV[2])
if first > last + 1 then return { -2, last, 0 } end
local n = #ARGV - 2
for k = 1, n do
  if first + k - 1 > last then redis.call('XADD', stream, '*', 'e', ARGV[k + 2]) end
end
local through = math.max(last, first + n - 1)
redis.call('HSET', seqs, agent, through)
local ttl = redis.call('PTTL', agents)
if ttl > 0 then
  redis.call('PEXPIRE', seqs, ttl)
  redis.call('PEXPIRE', stream, ttl)
end
return { 1, through, redis.call('EXISTS', stop) }
`;

/**
 * An agent's shard events of one run, taken from its POST and appended to the run's stream, which the
 * run's owner reads as it always did (docs/adr/0021-load-agents.md "Server side" 4): any replica can
 * take them.
 */
export class AgentEvents {
  constructor(private readonly redis: Redis) {}

  async append(
    agentId: string,
    runId: string,
    firstSeq: number,
    events: readonly ShardEvent[],
  ): Promise<ShardEventsAnswer> {
    const index = await this.redis.hget(runAgentsKey(runId), agentId);
    if (index === null) throw new NotFoundError('AGENT_RUN_NOT_FOUND', AGENT_EVENT_MESSAGES.runNotFound);
    // An agent writes as itself only: its own index in the run, its own id.
    const problems = events.flatMap((event, i) => {
      const where = `events.${i}`;
      if (event.agent_index !== Number(index))
        return [
          {
            field: `${where}.agent_index`,
            message: `agent_index must be ${index}, this agent's index in the run`,
          },
        ];
      if (event.type === 'ready' && event.agent_id !== agentId)
        return [{ field: `${where}.agent_id`, message: 'agent_id must be the id of the agent that posts' }];
      return [];
    });
    if (problems.length > 0) throw new ValidationError(problems, { code: 'AGENT_EVENTS_INVALID' });
    const answer = (await this.redis.eval(
      APPEND_SCRIPT,
      4,
      runAgentsKey(runId),
      runEventSeqKey(runId),
      runStreamKey(runId),
      runStopKey(runId),
      agentId,
      String(firstSeq),
      ...events.map((event) => JSON.stringify(event)),
    )) as [number, number, number];
    const [status, through, stopped] = answer;
    if (status === -1) throw new NotFoundError('AGENT_RUN_NOT_FOUND', AGENT_EVENT_MESSAGES.runNotFound);
    if (status === -2)
      throw new ConflictError(
        'AGENT_EVENTS_GAP',
        `Events ${through + 1} to ${firstSeq - 1} of this agent in this run are missing: send from ${through + 1}.`,
      );
    return { accepted_through: through, stop: stopped === 1 };
  }
}
