/** Types of redis.mjs for the TypeScript tests that start their own Redis (e2e/scale-out.spec.ts). */
export interface StartedRedis {
  /** redis://127.0.0.1:<port> */
  url: string;
  stop: (this: void) => Promise<void>;
}
export const REDIS_SERVER: string;
export function startRedis(): Promise<StartedRedis>;
