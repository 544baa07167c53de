/**
 * How many decimals a measured figure is shown with: the web app's screens and the CSV export round
 * alike (docs/reference/02-running.md §3 "CSV export"), so a figure read off the screen is the one in the
 * spreadsheet.
 */

/** A latency in ms: 2 decimals under 10 ms, 1 under 100 ms, none above (a k6-like precision). */
export function latencyDigits(ms: number): number {
  const size = Math.abs(ms);
  if (size < 10) return 2;
  if (size < 100) return 1;
  return 0;
}

/** Requests per second: 1 decimal under 100, none above. */
export function rateDigits(perSecond: number): number {
  return Math.abs(perSecond) < 100 ? 1 : 0;
}

/** A percentage (0–100): 2 decimals under 10 %, 1 above. */
export function percentDigits(percent: number): number {
  return Math.abs(percent) < 10 ? 2 : 1;
}

/** KB/s and seconds: 1 decimal. */
export const ONE_DECIMAL = 1;

/**
 * The value rounded half away from zero to `digits` decimals, as Intl.NumberFormat shows it: on the
 * decimal text, so 1.005 is 1.01 (Math.round(1.005 * 100) would give 1).
 */
export function roundFigure(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const size = Math.abs(value);
  // Text in exponent form (under 1e-6, from 1e21) cannot take another exponent: plain arithmetic there.
  const shifted = /e/i.test(String(size))
    ? Math.round(size * 10 ** digits)
    : Math.round(Number(`${size}e${digits}`));
  return Math.sign(value) * (shifted / 10 ** digits) || 0;
}
