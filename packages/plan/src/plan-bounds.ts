/*
 * A performance plan's load bounds (docs/reference/01-authoring.md §5): concurrent users and whole
 * minutes for a plan without a load profile, and the ceilings a load profile keeps within
 * (load-profile.ts). In a module of their own so that the plan (perf-plan.ts) and its load profile
 * read the same numbers without importing each other.
 */

export const MIN_USERS = 1;
export const MAX_USERS = 1000;
export const DEFAULT_USERS = 10;
export const MIN_DURATION_MIN = 1;
export const MAX_DURATION_MIN = 1440;
export const DEFAULT_DURATION_MIN = 1;
