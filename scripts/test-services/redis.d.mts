/** Types of redis.mjs for the TypeScript tests that start their own Redis (e2e/scale-out.spec.ts). */
export interface StartedRedis {
  /** redis://<first bind address>:<port> */
  url: string;
  stop: (this: void) => Promise<void>;
}
export const REDIS_SERVER: string;
/** bind: the addresses redis-server listens on (default 127.0.0.1); the URL names the first. */
export function startRedis(options?: { bind?: string[] }): Promise<StartedRedis>;
