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
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
