/**
 * Think time (docs/reference/01-authoring.md §3, §5): text such as "1000ms", "2s" or "1.5" (a bare number is seconds), at least 0
 * in steps of 0.1 s. docs/design.md §4: the pause comes after the step.
 */

/** The longest think time a step may ask for; longer pauses are almost always a typo (ms read as s). */
export const MAX_THINK_TIME_MS = 3_600_000;

export class ThinkTimeError extends Error {
  override name = 'ThinkTimeError';
}

const THINK_TIME = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)?$/i;

/**
 * Milliseconds of pause for a think-time text. Blank means no pause.
 * Seconds ("2s", "1.5") go in steps of 0.1 s; milliseconds ("250ms") must be whole.
 * @throws ThinkTimeError with a message a person can act on.
 */
export function parseThinkTimeMs(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const match = THINK_TIME.exec(trimmed);
  if (!match) {
    throw new ThinkTimeError(
      `Think time "${trimmed}" is not understood: write milliseconds like 1000ms, seconds like 2s, or a number of seconds like 1.5`,
    );
  }
  const amount = match[1] ?? '0';
  const unit = (match[2] ?? 's').toLowerCase();
  let ms: number;
  if (unit === 'ms') {
    if (amount.includes('.')) {
      throw new ThinkTimeError(`Think time "${trimmed}" must be a whole number of milliseconds`);
    }
    ms = Number(amount);
  } else {
    // Tenths of a second are the finest step (docs/reference/01-authoring.md §5), so "1.25" is refused rather than rounded.
    const tenths = Number(amount) * 10;
    if (Math.abs(tenths - Math.round(tenths)) > 1e-9) {
      throw new ThinkTimeError(`Think time "${trimmed}" goes in steps of 0.1 s (e.g. 1.2 or 1.3)`);
    }
    ms = Math.round(tenths) * 100;
  }
  if (ms > MAX_THINK_TIME_MS) {
    throw new ThinkTimeError(`Think time "${trimmed}" is longer than the maximum of 1 hour`);
  }
  return ms;
}

/** The same check as parseThinkTimeMs, as a message (or undefined when the text is fine). */
export function thinkTimeProblem(text: string): string | undefined {
  try {
    parseThinkTimeMs(text);
    return undefined;
  } catch (error) {
    if (error instanceof ThinkTimeError) return error.message;
    throw error;
  }
}
