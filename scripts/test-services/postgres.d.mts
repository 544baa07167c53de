/** Types of postgres.mjs for the TypeScript tests that start their own PostgreSQL (e2e/scale-out.spec.ts). */
export interface StartedPostgres {
  /** A superuser URL to the throw-away cluster's `postgres` database. */
  url: string;
  stop: (this: void) => Promise<void>;
}
export function startPostgres(): Promise<StartedPostgres>;
