import { z } from 'zod';

/*
 * Optimistic concurrency on saved plans (docs/reference/01-authoring.md §7 "Plan versions"): the server
 * gives every saved plan a version, 1 when it is made and one more with each update. An update that names
 * the version it was made from is refused with 409 PLAN_CHANGED when the plan moved on since; one that
 * names none (an API client, a script) replaces the plan as before.
 */

export const PLAN_VERSION_ERRORS = {
  shape: 'Version must be a whole number from 1: the version of the saved plan this update was made from',
  changed: 'This plan changed since you opened it',
  changedHint:
    'Load the saved plan to see the other change, or send the update again with its current version to overwrite it.',
} as const;

/** The answer's code when an update was made from an older version of the plan. */
export const PLAN_CHANGED_CODE = 'PLAN_CHANGED';

/** A plan's version as an update sends it: a JSON whole number from 1. */
export const PlanVersionSchema = z
  .number({ error: () => PLAN_VERSION_ERRORS.shape })
  .int(PLAN_VERSION_ERRORS.shape)
  .min(1, PLAN_VERSION_ERRORS.shape)
  .max(Number.MAX_SAFE_INTEGER, PLAN_VERSION_ERRORS.shape)
  .describe(
    'The version of the saved plan this update was made from; a stale one is refused with 409 PLAN_CHANGED. Left out, the update replaces the plan whatever its version.',
  );
