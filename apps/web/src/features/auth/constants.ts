/** Simulated wait before the login or registration action (docs/reference/01-authoring.md §9). */
export const SIMULATED_WAIT_MS = 1000;
