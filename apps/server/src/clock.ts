/** Epoch milliseconds. Services take a clock instead of calling Date.now so tests can move time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function isoAt(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
