import { Redis } from 'ioredis';
import type { AgentRunContext } from './agent-fleet';
import { AgentJobs } from './agent-jobs';
import { AgentRegistry } from './agent-registry';

/*
 * For the agents' tests only (agent-fleet.test.ts, agent-runner.test.ts): what a run on agents reaches
 * them through, on the throw-away Redis of the vitest global set-up (scripts/test-services/).
 */

/** A logger that says nothing. */
export const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The run context on the test Redis, its command connection for the test's own reads, and a close. */
export interface TestAgentContext {
  context: AgentRunContext;
  redis: Redis;
  close(): void;
}

export function openTestAgentContext(): TestAgentContext {
  const redisUrl = process.env.AQA_TEST_REDIS_URL ?? '';
  if (redisUrl === '')
    throw new Error('AQA_TEST_REDIS_URL is not set: the vitest global set-up starts Redis');
  const redis = new Redis(redisUrl);
  const subscriber = new Redis(redisUrl);
  return {
    context: {
      registry: new AgentRegistry(redis),
      jobs: new AgentJobs(redis, subscriber),
      redis,
      redisUrl,
    },
    redis,
    close: () => {
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
