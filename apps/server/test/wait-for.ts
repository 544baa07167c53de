import { UNFINISHED_STATUSES } from '@aqa/plan';

/**
 * The one polling helper of the server tests: asks `probe` every `everyMs` (100 ms unless told)
 * until it gives a value (undefined: not yet), and returns that value; fails naming `what` it waited
 * for once `timeoutMs` have passed. `what` may be a function, read only on failure, so the message can
 * carry the last state the probe saw (a run's last answer, a count).
 */
export async function waitFor<T>(
  what: string | (() => string),
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What waitForRunEnd reads a run's result through: a test server (helpers.ts) or anything like it. */
interface ResultReader {
  request(options: {
    method: 'GET';
    url: string;
    token: string;
  }): Promise<{ statusCode: number; body: string; json<T>(): T }>;
}

/** Where a run's result is read, by family (docs/reference/02-running.md §7). */
const RESULT_ROUTES = {
  load: '/api/get-test-result/',
  functional: '/api/functional/get-test-result/',
} as const;

/** The statuses of a run not yet ended: a load run is `processing` while its result is written. */
const UNENDED: ReadonlySet<string> = new Set(UNFINISHED_STATUSES);

/**
 * Reads run `id`'s result as `token`'s user until the run has ended, and answers that result; an
 * answer other than 200 fails at once, and a timeout's failure carries the last answer read.
 */
export async function waitForRunEnd<T extends { status: string }>(
  server: ResultReader,
  token: string,
  family: keyof typeof RESULT_ROUTES,
  id: string,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  let last = '';
  return waitFor(
    () => `run ${id} to end: ${last.slice(0, 400)}`,
    async () => {
      const answer = await server.request({ method: 'GET', url: `${RESULT_ROUTES[family]}${id}`, token });
      last = answer.body;
      if (answer.statusCode !== 200)
        throw new Error(`GET ${RESULT_ROUTES[family]}${id}: ${answer.statusCode} ${answer.body}`);
      const result = answer.json<T>();
      return UNENDED.has(result.status) ? undefined : result;
    },
    timeoutMs,
    everyMs,
  );
}
